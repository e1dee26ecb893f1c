#include "src/cli/doctor_input.hpp"

namespace usbsat::cli {

report::FindingSeverity to_report(analysis::doctor::FindingSeverity s) {
  using analysis::doctor::FindingSeverity;
  switch (s) {
    case FindingSeverity::Info:
      return report::FindingSeverity::Info;
    case FindingSeverity::Warning:
      return report::FindingSeverity::Warning;
    case FindingSeverity::Problem:
      return report::FindingSeverity::Problem;
  }
  return report::FindingSeverity::Info;
}

report::Finding to_report(const analysis::doctor::Finding& f) {
  return {f.id, to_report(f.severity), f.devices, f.evidence, f.message, f.fix};
}

std::vector<report::Finding> to_report(std::span<const analysis::doctor::Finding> findings) {
  std::vector<report::Finding> out;
  out.reserve(findings.size());
  for (const auto& f : findings) out.push_back(to_report(f));
  return out;
}

}  // namespace usbsat::cli
