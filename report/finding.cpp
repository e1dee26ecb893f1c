#include "report/finding.hpp"

#include <algorithm>

namespace usbsat::report {

std::string_view to_string(FindingSeverity s) {
  switch (s) {
    case FindingSeverity::Info:
      return "info";
    case FindingSeverity::Warning:
      return "warning";
    case FindingSeverity::Problem:
      return "problem";
  }
  return "info";
}

std::optional<FindingSeverity> worst_severity(std::span<const Finding> findings) {
  std::optional<FindingSeverity> worst;
  for (const auto& f : findings)
    if (!worst || f.severity > *worst) worst = f.severity;
  return worst;
}

}  // namespace usbsat::report
