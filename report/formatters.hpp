#pragma once
/// fmt::formatter specializations for the unit and id types of topology/ (fmt 9: const format()); the
/// human ones print topology/words/describe.hpp's wording.
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/node.hpp"
#include "topology/model/pcie_link.hpp"
#include "topology/model/speed.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::report {
/// Disk size in decimal units as drive vendors label them: "500.1 GB", "2.0 TB", "16.0 GB", "512 B".
std::string format_disk_size(std::uint64_t bytes);
/// Mb/s without trailing zeros: "1.5", "12", "480", "5000".
std::string format_mbps(double mbps);
/// "08/06/62": class/subclass/protocol in hex.
std::string format_class_triple(std::uint8_t cls, std::uint8_t sub, std::uint8_t proto);
/// Human name of a USB interface class as lsusb -t prints it ("Mass Storage", "Hub", "Human Interface
/// Device"); "Class 0xNN" for classes not in the table.
std::string usb_class_name(std::uint8_t cls);
/// "UAS" / "BOT" / "other" / "": the protocol as the text views print it.
std::string_view protocol_label(topology::StorageProtocol p);
}  // namespace usbsat::report

template <>
struct fmt::formatter<usbsat::topology::UsbSpeed> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::UsbSpeed s, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::short_label(s), ctx);
  }
};

template <>
struct fmt::formatter<usbsat::topology::HcdKind> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::HcdKind k, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::to_string(k), ctx);
  }
};

template <>
struct fmt::formatter<usbsat::topology::PcieLink> : fmt::formatter<std::string_view> {
  auto format(const usbsat::topology::PcieLink& l, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::pcie_link_text(l), ctx);
  }
};

/// "392 MB/s", "1.22 MB/s", "1575 MB/s": topology::bandwidth_text().
template <>
struct fmt::formatter<usbsat::topology::Bandwidth> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::Bandwidth b, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::bandwidth_text(b), ctx);
  }
};

template <>
struct fmt::formatter<usbsat::topology::ResourceKind> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::ResourceKind k, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::to_string(k), ctx);
  }
};
