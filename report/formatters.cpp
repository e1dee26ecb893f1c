#include "report/formatters.hpp"

#include <iterator>

#include "topology/base/string_table.hpp"

namespace usbsat::report {

std::string format_disk_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1000) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes);
  std::size_t u = 0;
  while (v >= 999.95 && u + 1 < std::size(kUnits)) {
    v /= 1000;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string format_mbps(double mbps) {
  return fmt::format("{:g}", mbps);
}

std::string format_class_triple(std::uint8_t cls, std::uint8_t sub, std::uint8_t proto) {
  return fmt::format("{:02x}/{:02x}/{:02x}", cls, sub, proto);
}

std::string usb_class_name(std::uint8_t cls) {
  // usbutils' names for the classes lsusb -t prints (usb.ids "C" lines, shortened the same way).
  switch (cls) {
    case 0x01:
      return "Audio";
    case 0x02:
      return "Communications";
    case 0x03:
      return "Human Interface Device";
    case 0x05:
      return "Physical Interface Device";
    case 0x06:
      return "Image";
    case 0x07:
      return "Printer";
    case 0x08:
      return "Mass Storage";
    case 0x09:
      return "Hub";
    case 0x0a:
      return "CDC Data";
    case 0x0b:
      return "Chip/SmartCard";
    case 0x0d:
      return "Content Security";
    case 0x0e:
      return "Video";
    case 0x0f:
      return "Personal Healthcare";
    case 0x10:
      return "Audio/Video";
    case 0x11:
      return "Billboard";
    case 0xdc:
      return "Diagnostic";
    case 0xe0:
      return "Wireless";
    case 0xef:
      return "Miscellaneous Device";
    case 0xfe:
      return "Application Specific Interface";
    case 0xff:
      return "Vendor Specific Class";
    default:
      return fmt::format("Class 0x{:02x}", cls);
  }
}

constexpr topology::StringTable<topology::StorageProtocol, 3> kProtocolLabels{{{
    {topology::StorageProtocol::Uas, "UAS"},
    {topology::StorageProtocol::Bot, "BOT"},
    {topology::StorageProtocol::Other, "other"},
}}};

std::string_view protocol_label(topology::StorageProtocol p) {
  return kProtocolLabels.name(p, "");
}

}  // namespace usbsat::report
