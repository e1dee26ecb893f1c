#include "topology/model/speed.hpp"

#include <array>

#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {
struct SpeedRow {
  UsbSpeed speed;
  std::string_view sysfs;
  double mbps;
  std::string_view label;
};
// The kernel's usb_speed_string()/speed_show() spellings (drivers/usb/core/sysfs.c).
constexpr std::array kSpeeds{
    SpeedRow{UsbSpeed::Low, "1.5", 1.5, "1.5M"},
    SpeedRow{UsbSpeed::Full, "12", 12, "12M"},
    SpeedRow{UsbSpeed::High, "480", 480, "480M"},
    SpeedRow{UsbSpeed::Wireless, "53.3-480", 480, "480M(wireless)"},
    SpeedRow{UsbSpeed::Super, "5000", 5000, "5G"},
    SpeedRow{UsbSpeed::SuperPlus, "10000", 10000, "10G"},
    SpeedRow{UsbSpeed::SuperPlus2x2, "20000", 20000, "20G"},
    SpeedRow{UsbSpeed::Usb4_40, "40000", 40000, "40G"},
    SpeedRow{UsbSpeed::Usb4_80, "80000", 80000, "80G"},
};
}  // namespace

std::optional<UsbSpeed> parse_speed(std::string_view sysfs) {
  sysfs = trim(sysfs);
  for (const auto& row : kSpeeds)
    if (row.sysfs == sysfs) return row.speed;
  return std::nullopt;
}

std::string_view to_sysfs_string(UsbSpeed s) {
  for (const auto& row : kSpeeds)
    if (row.speed == s) return row.sysfs;
  return "unknown";
}

double nominal_mbps(UsbSpeed s) {
  for (const auto& row : kSpeeds)
    if (row.speed == s) return row.mbps;
  return 0;
}

std::string_view short_label(UsbSpeed s) {
  for (const auto& row : kSpeeds)
    if (row.speed == s) return row.label;
  return "?";
}

std::optional<UsbSpeed> speed_from_mbps(double mbps) {
  for (const auto& row : kSpeeds)
    if (row.mbps == mbps && row.speed != UsbSpeed::Wireless) return row.speed;
  return std::nullopt;
}

}  // namespace usbsat::topology
