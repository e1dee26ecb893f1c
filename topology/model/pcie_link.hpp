#pragma once
/// PCI Express link state of one PCI function, from `current_link_speed/width` and `max_link_speed/width`.
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

/// One PCIe link as sysfs reports it. Every field is optional: conventional PCI functions, chipset-integrated
/// controllers and old kernels have none of these attributes.
struct PcieLink {
  std::optional<double> speed_gts;      ///< current_link_speed in GT/s (2.5, 5, 8, 16, 32, 64)
  std::optional<unsigned> width;        ///< current_link_width (lanes)
  std::optional<double> max_speed_gts;  ///< max_link_speed in GT/s
  std::optional<unsigned> max_width;    ///< max_link_width

  bool empty() const { return !speed_gts && !width && !max_speed_gts && !max_width; }
  /// Running below its maximum speed or width (both sides known).
  bool degraded() const {
    return (speed_gts && max_speed_gts && *speed_gts < *max_speed_gts) ||
           (width && max_width && *width < *max_width);
  }
  bool operator==(const PcieLink&) const = default;
};

/// Parse "8.0 GT/s PCIe", "8 GT/s", "2.5 GT/s", "5.0 GT/s PCIe"; "Unknown"/"Unknown speed" give nullopt.
std::optional<double> parse_pcie_speed(std::string_view s);
/// Parse a link width ("4", "x4" never occurs in sysfs but is accepted); "0" and garbage give nullopt.
std::optional<unsigned> parse_pcie_width(std::string_view s);
/// PCIe generation for a per-lane rate: 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6.
std::optional<unsigned> pcie_generation(double gts);

// PcieLink's one formatter (STYLE G21), with the value type: the capacity model's resource labels use it and
// topology/words, which says everything else, sits above the capacity model (topology/README.md).

/// A PCIe speed and width: "5 GT/s x1", "2.5 GT/s x4" (GT/s without trailing zeros); "5 GT/s" or "x1" when
/// only one is known, "" when neither is.
std::string pcie_rate_text(std::optional<double> gts, std::optional<unsigned> width);
/// A PCIe link for views, sentences and resource labels: "PCIe 5 GT/s x1", "PCIe 5 GT/s x1 (max 8 GT/s x4)"
/// when it trained below its maximum, "PCIe link unknown (max 8 GT/s x4)" when it is down or the kernel
/// cannot tell; "" when nothing is known.
std::string pcie_link_text(const PcieLink& l);

}  // namespace usbsat::topology
