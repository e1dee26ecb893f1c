#include "src/analysis/plan/question.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "topology/base/text.hpp"

namespace usbsat::analysis::plan {

std::optional<std::string> repeated_device(std::span<const std::string> devices) {
  std::set<std::string_view, std::less<>> seen;
  for (const auto& d : devices) {
    const auto name = topology::strip_dev_prefix(d);
    if (!seen.insert(name).second)
      return fmt::format("{} is named twice: name each drive to plan once", name);
  }
  return std::nullopt;
}

std::optional<std::string> unknown_device(std::span<const std::string> devices,
                                          std::span<const std::string> usb_drives) {
  for (const auto& d : devices) {
    const auto name = topology::strip_dev_prefix(d);
    if (std::find(usb_drives.begin(), usb_drives.end(), name) != usb_drives.end()) continue;
    if (usb_drives.empty()) return fmt::format("{} is not a USB drive here: there is no USB drive", name);
    return fmt::format("{} is not a USB drive here (the USB drives: {})", name, fmt::join(usb_drives, ", "));
  }
  return std::nullopt;
}

}  // namespace usbsat::analysis::plan
