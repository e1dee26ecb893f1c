#pragma once
/// Assembling the input of attribute() for one group: the group's drives with their locations, the shared
/// resources on their common path as candidates, their lowest common ancestor, and the model's prediction
/// for every measured phase (demands = the measured solo rates). `usbsat saturate` calls these once per
/// group after measuring; they are pure.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/grouping.hpp"
#include "src/analysis/saturate/attribution.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::saturate {

/// Mean solo MB/s of every drive measured in an n == 1 phase.
std::map<std::string, double> solo_means(const std::vector<PhaseMeasurement>& phases);

/// A group found by shared_node_groups(). Drives without a solo rate keep their link ceiling as demand.
GroupInput topology_group_input(const topology::Topology& t, const model::DriveGroup& group,
                                std::vector<PhaseMeasurement> phases,
                                const topology::CapacityModel& m = topology::nominal_model());

/// `--group NAME=/dev/a,/dev/b[@CAP]`: no topology, the declared capacity (if any) is the only candidate.
GroupInput declared_group_input(const std::string& name, const std::vector<std::string>& devs,
                                std::optional<topology::Bandwidth> capacity,
                                std::vector<PhaseMeasurement> phases);

}  // namespace usbsat::analysis::saturate
