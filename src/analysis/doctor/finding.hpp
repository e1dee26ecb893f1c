#pragma once
/// One doctor finding, as the checks produce it: the doctor's own result type (shared/STYLE.md G1), which
/// src/cli/doctor_input.hpp converts into report input.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace usbsat::analysis::doctor {

/// How bad a finding is. Policy (src/README.md, "usbsat doctor"): Problem = broken or losing most of the
/// possible throughput (USB3 drive at 480 Mb/s, 12 Mb/s companion, over-current); Warning = working but
/// measurably slower than it could be and fixable (no UAS without a deliberate quirk, 5 instead of 10 Gb/s,
/// degraded PCIe, drives sharing a bottleneck); Info = a deliberate setting or a tuning hint (quirked UAS,
/// max_sectors_kb, autosuspend, several drives behind one hub).
enum class FindingSeverity : std::uint8_t { Info, Warning, Problem };

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

}  // namespace usbsat::analysis::doctor
