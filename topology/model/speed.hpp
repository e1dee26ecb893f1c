#pragma once
/// USB signalling speeds as the kernel reports them in a device's `speed` attribute.
#include <cstdint>
#include <optional>
#include <string_view>

namespace usbsat::topology {

/// Negotiated or capable USB signalling rate. Values follow the kernel's `speed` strings:
/// "1.5", "12", "480", "53.3-480" (wireless), "5000", "10000", "20000" (and "40000"/"80000" for USB4
/// tunnels).
enum class UsbSpeed : std::uint8_t {
  Unknown,
  Low,           ///< 1.5 Mb/s  (USB 1.x low speed)
  Full,          ///< 12 Mb/s   (USB 1.x full speed)
  High,          ///< 480 Mb/s  (USB 2.0)
  Wireless,      ///< 53.3-480 Mb/s (wireless USB, historic)
  Super,         ///< 5 Gb/s    (USB 3.2 Gen 1)
  SuperPlus,     ///< 10 Gb/s   (USB 3.2 Gen 2, or Gen 1x2)
  SuperPlus2x2,  ///< 20 Gb/s   (USB 3.2 Gen 2x2)
  Usb4_40,       ///< 40 Gb/s
  Usb4_80,       ///< 80 Gb/s
};

/// Parse a sysfs `speed` string; "unknown", "" and garbage give std::nullopt.
std::optional<UsbSpeed> parse_speed(std::string_view sysfs);
/// The exact kernel string for a speed ("480", "5000", "1.5", ...); round-trips with parse_speed.
std::string_view to_sysfs_string(UsbSpeed s);
/// Nominal signalling rate in Mb/s (1.5 for Low, 0 for Unknown).
double nominal_mbps(UsbSpeed s);
/// Short human label: "1.5M", "12M", "480M", "5G", "10G", "20G".
std::string_view short_label(UsbSpeed s);
/// The speed whose nominal rate is exactly `mbps` (480 -> High), if any.
std::optional<UsbSpeed> speed_from_mbps(double mbps);
/// True for 5 Gb/s and above (a SuperSpeed link, i.e. the device sits on a USB3 root hub).
constexpr bool is_superspeed(UsbSpeed s) {
  return s >= UsbSpeed::Super;
}

}  // namespace usbsat::topology
