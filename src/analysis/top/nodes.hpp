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
#include "topology/results/top.hpp"

namespace usbsat::analysis::top {

/// A node that carries the I/O of block devices: the one type (topology/results/top.hpp).
using results::TopNode;

/// One node per resource on the path of any USB drive with media (common::usb_drives_with_media), in the
/// order first met walking the drives in block order, each with every drive whose path crosses it.
std::vector<TopNode> topology_nodes(const topology::Topology& t,
                                    const topology::CapacityModel& m = topology::nominal_model());

/// One node per `--group`: its devices (paths without "/dev/") and declared capacity.
std::vector<TopNode> group_nodes(std::span<const common::GroupSpec> groups);

}  // namespace usbsat::analysis::top
