#pragma once
/// Groups of drives that share something: the default grouping of `usbsat saturate`, and the shared resources
/// (attribution candidates) and lowest common ancestor of any set of drives.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::model {

/// Drives below one shared node.
struct DriveGroup {
  std::string name;         ///< the node's id: "1-1", "usb1", "0000:03:00.0"
  topology::Vertex node{};  ///< the shared node nearest to the drives
  topology::NodeKind kind =
      topology::NodeKind::Controller;  ///< Hub, RootHub (EHCI bus), Controller or PciHop
  std::vector<std::string> drives;     ///< block names, in the order given
  /// Every resource on the path of *all* drives of the group, nearest to the drives first: the candidates
  /// a measured plateau is matched against.
  std::vector<topology::Resource> shared;
  /// Other shared nodes above `node` with exactly the same drives below them (same experiment, not repeated).
  std::vector<std::string> same_drives_as;
};

/// Resources common to the paths of all `blocks`, nearest to the drives first (empty for no drives).
std::vector<topology::Resource> common_resources(
    const topology::Topology& t, std::span<const topology::Vertex> blocks,
    const topology::CapacityModel& m = topology::nominal_model());

/// The lowest common ancestor of `blocks` (nullopt when they are in different trees or none are given).
std::optional<topology::Vertex> lowest_common_ancestor(const topology::Topology& t,
                                                       std::span<const topology::Vertex> blocks);

/// One group per shared node — hub (the half carrying the drives), EHCI/OHCI/UHCI bus, controller, PCIe
/// hop — that has at least two of `blocks` below it. Nodes with the same set of drives below them collapse
/// into one group named after the node nearest to the drives (an ASM1042 card's controller, its PCIe link
/// and the root port above all see the same two drives: one measurement answers all three); the others are
/// listed in `same_drives_as` and their resources are in `shared`. Groups are in topology order (parents
/// before children), which is deterministic.
std::vector<DriveGroup> shared_node_groups(const topology::Topology& t,
                                           std::span<const topology::Vertex> blocks,
                                           const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::analysis::model
