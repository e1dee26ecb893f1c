#pragma once
/// What `usbsat top` measures: nodes that carry the I/O of one or more block devices, with the capacity the
/// bandwidth model gives them (topology/capacity/bandwidth.hpp's path_resources(), the one source of
/// capacities) or the capacity declared with `--group NAME=dev,...@CAP`.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/analysis/common/group_spec.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::top {

struct TopNode {
  std::string id;     ///< the resource id ("pcie_link:0000:03:00.0", "drive_link:2-1") or "group:NAME"
  std::string kind;   ///< "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link", "declared"
  std::string label;  ///< the resource's label, "group NAME"
  std::vector<std::string> devices;  ///< block device names whose bytes it carries ("sdb", "loop3")
  std::optional<topology::Bandwidth> capacity;  ///< nullopt: not modelled (no utilisation)
  bool operator==(const TopNode&) const = default;
};

/// One node per resource on the path of any USB drive with media (common::usb_drives_with_media), in the
/// order first met walking the drives in block order, each with every drive whose path crosses it.
std::vector<TopNode> topology_nodes(const topology::Topology& t,
                                    const topology::CapacityModel& m = topology::nominal_model());

/// One node per `--group`: its devices (paths without "/dev/") and declared capacity.
std::vector<TopNode> group_nodes(std::span<const common::GroupSpec> groups);

}  // namespace usbsat::analysis::top
