#include "topology/model/diagnostic.hpp"

#include "topology/base/string_table.hpp"

namespace usbsat::topology {
namespace {
constexpr StringTable<Severity, 3> kSeverityNames{{{
    {Severity::Info, "info"},
    {Severity::Warning, "warning"},
    {Severity::Error, "error"},
}}};
}  // namespace

std::string_view to_string(Severity s) {
  return kSeverityNames.name(s, "error");
}

std::optional<Severity> parse_severity(std::string_view s) {
  return kSeverityNames.parse(s);
}

}  // namespace usbsat::topology
