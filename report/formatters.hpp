#pragma once
/// fmt::formatter specializations for the unit and id types of topology/ (fmt 9: const format()).
#include <fmt/format.h>

#include "topology/node.hpp"
#include "topology/pcie_link.hpp"
#include "topology/speed.hpp"

namespace usbsat::report {
/// "8 GT/s x4" or "5 GT/s x1 (max 8 GT/s x4)"; "" when nothing is known.
std::string format_pcie_link(const topology::PcieLink& l);
/// "2.5", "5", "8", "16": GT/s without trailing zeros.
std::string format_gts(double gts);
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
    return fmt::formatter<std::string_view>::format(usbsat::report::format_pcie_link(l), ctx);
  }
};
