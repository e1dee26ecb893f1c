#pragma once
/// One doctor finding: the doctor's result and the renderers' input, defined once (issue 40). Header-only,
/// below both src/analysis and report (the `results` target links only topology's headers), so the doctor
/// returns it and report renders it without a mirror type or a conversion in between (shared/STYLE.md G1).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topology/base/string_table.hpp"

namespace usbsat::results {

/// How bad a finding is. Policy (src/README.md, "usbsat doctor"): Problem = broken or losing most of the
/// possible throughput (USB3 drive at 480 Mb/s, 12 Mb/s companion, over-current); Warning = working but
/// measurably slower than it could be and fixable (no UAS without a deliberate quirk, 5 instead of 10 Gb/s,
/// degraded PCIe, drives sharing a bottleneck); Info = a deliberate setting or a tuning hint (quirked UAS,
/// max_sectors_kb, autosuspend, several drives behind one hub).
enum class FindingSeverity : std::uint8_t { Info, Warning, Problem };

inline constexpr topology::StringTable<FindingSeverity, 3> kFindingSeverityNames{{{
    {FindingSeverity::Info, "info"},
    {FindingSeverity::Warning, "warning"},
    {FindingSeverity::Problem, "problem"},
}}};

/// "info", "warning", "problem" (the JSON words).
constexpr std::string_view to_string(FindingSeverity s) {
  return kFindingSeverityNames.name(s, "info");
}
/// The severity whose JSON word is exactly `s`; nullopt for anything else.
constexpr std::optional<FindingSeverity> parse_finding_severity(std::string_view s) {
  return kFindingSeverityNames.parse(s);
}

/// One diagnosis with the sysfs evidence it rests on and a concrete fix.
struct Finding {
  std::string id;  ///< the check's stable id: "uas_inactive", "speed_below_capability", ...
  FindingSeverity severity = FindingSeverity::Info;
  std::vector<std::string> devices;  ///< block devices first ("sdc"), then USB/port/PCI names ("2-3")
  std::vector<std::pair<std::string, std::string>> evidence;  ///< "2-3/speed" -> "480", in a fixed order
  std::string message;                                        ///< what is wrong and why, one paragraph
  std::string fix;  ///< what to do, with exact commands where there are any
  bool operator==(const Finding&) const = default;
};

/// The most severe finding, if any.
inline std::optional<FindingSeverity> worst_severity(std::span<const Finding> findings) {
  std::optional<FindingSeverity> worst;
  for (const auto& f : findings)
    if (!worst || f.severity > *worst) worst = f.severity;
  return worst;
}

}  // namespace usbsat::results
