#pragma once
/// `usbsat top`'s results: the nodes it measures and each node's rate over one interval, defined once
/// (issue 40). Header-only, below both src/analysis and report: analysis/top computes them and
/// report/top_report.hpp renders them as they are, with no mirror type or conversion in between.
#include <optional>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"

namespace usbsat::results {

/// A node that carries the I/O of one or more block devices.
struct TopNode {
  std::string id;     ///< the resource id ("pcie_link:0000:03:00.0", "drive_link:2-1") or "group:NAME"
  std::string kind;   ///< "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link", "declared"
  std::string label;  ///< the resource's label, "group NAME"
  std::vector<std::string> devices;  ///< block device names whose bytes it carries ("sdb", "loop3")
  std::optional<topology::Bandwidth> capacity;  ///< nullopt: not modelled (no utilisation)
  bool operator==(const TopNode&) const = default;
};

/// A node's throughput over one interval.
struct NodeRate {
  TopNode node;
  double mbs = 0;  ///< read + write, 10^6 B/s
  double read_mbs = 0, write_mbs = 0;
  std::optional<double> utilisation;  ///< mbs / capacity (0.93 = 93%); nullopt without a capacity
  bool bottleneck = false;            ///< utilisation >= the threshold
  std::vector<std::string> missing;   ///< devices without counters in either sample (gone, unreadable)
};

}  // namespace usbsat::results
