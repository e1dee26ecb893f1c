#pragma once
/// fmt::formatter specializations for the unit and id types of topology/ (fmt 9: const format()).
#include <fmt/format.h>

#include "topology/bandwidth.hpp"
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

/// "392 MB/s", "1.22 MB/s", "1575 MB/s": three significant digits below 1000 MB/s, whole MB/s above.
template <>
struct fmt::formatter<usbsat::topology::Bandwidth> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::Bandwidth b, format_context& ctx) const {
    const double v = b.mbs();
    const std::string s = v >= 1000 ? fmt::format("{:.0f} MB/s", v) : fmt::format("{:.3g} MB/s", v);
    return fmt::formatter<std::string_view>::format(s, ctx);
  }
};

template <>
struct fmt::formatter<usbsat::topology::ResourceKind> : fmt::formatter<std::string_view> {
  auto format(usbsat::topology::ResourceKind k, format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(usbsat::topology::to_string(k), ctx);
  }
};
