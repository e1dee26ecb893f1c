#include "load/windows_safety.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace usbsat::load {

std::optional<unsigned> parse_physical_drive(std::string_view path) {
  constexpr std::string_view kPrefix = "\\\\.\\physicaldrive";
  if (path.size() <= kPrefix.size()) return std::nullopt;
  for (std::size_t i = 0; i < kPrefix.size(); ++i) {
    const char c =
        path[i] == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(path[i])));
    if (c != kPrefix[i]) return std::nullopt;
  }
  const std::string_view digits = path.substr(kPrefix.size());
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  return n;
}

SafetyDecision decide_disk_write(const WindowsDiskFacts& f) {
  const std::string disk = "\\\\.\\PhysicalDrive" + std::to_string(f.disk);
  auto on_disk = [&](const WindowsVolume& v) {
    return std::count(v.disks.begin(), v.disks.end(), f.disk) > 0;
  };
  if (f.system_disks.empty())
    return {false, "cannot find the disk of the system volume; refusing to write " + disk};
  if (std::count(f.system_disks.begin(), f.system_disks.end(), f.disk))
    return {false, disk + " holds the system volume " + f.system_root.value_or("(the Windows directory)") +
                       "; refusing to write"};
  for (const auto& v : f.volumes)
    if (on_disk(v) && !v.mount_points.empty())
      return {false,
              disk + " is mounted: a volume on it is " + v.mount_points.front() + "; refusing to write"};
  return {true, {}};
}

}  // namespace usbsat::load
