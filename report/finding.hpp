#pragma once
/// One doctor finding as the renderers consume it (G15: report/ defines its input, src/cli/doctor_input.cpp
/// fills it from the doctor's own findings).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace usbsat::report {

/// How bad a finding is; the policy is the doctor's (src/README.md, "usbsat doctor").
enum class FindingSeverity : std::uint8_t { Info, Warning, Problem };

/// "info", "warning", "problem".
std::string_view to_string(FindingSeverity s);

/// One diagnosis with the sysfs evidence it rests on and a concrete fix.
struct Finding {
  std::string id;  ///< stable id: "uas_inactive", "speed_below_capability", ...
  FindingSeverity severity = FindingSeverity::Info;
  std::vector<std::string> devices;  ///< block devices first ("sdc"), then USB/port/PCI names ("2-3")
  std::vector<std::pair<std::string, std::string>> evidence;  ///< "2-3/speed" -> "480", in a fixed order
  std::string message;                                        ///< what is wrong and why, one paragraph
  std::string fix;  ///< what to do, with exact commands where there are any
  bool operator==(const Finding&) const = default;
};

/// The most severe finding, if any.
std::optional<FindingSeverity> worst_severity(std::span<const Finding> findings);

}  // namespace usbsat::report
