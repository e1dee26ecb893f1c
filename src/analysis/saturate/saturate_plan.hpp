#pragma once
/// Step 1 of `usbsat saturate`: which groups (shared nodes of the topology, or `--group` declarations), which
/// drives, which queue depth, which phases (each drive alone, then 2, then 4 / all at once).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "load/job.hpp"
#include "src/analysis/common/group_spec.hpp"
#include "src/analysis/model/grouping.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/saturate.hpp"

namespace usbsat::analysis::saturate {

/// Queue depth by storage protocol: BOT carries one command at a time (QD1); UAS queues (QD32); anything
/// else (unknown protocol, a --group device) gets the deep queue too, so the device decides.
inline constexpr unsigned kBotQueueDepth = 1;
inline constexpr unsigned kQueuedQueueDepth = 32;
unsigned protocol_queue_depth(topology::StorageProtocol p);

/// The concurrency levels of a group of `n` drives: 1 (each alone), 2, 4, and n when n > 4; only levels
/// <= n. Fewer than two drives: {1}.
std::vector<unsigned> phase_levels(std::size_t n);

/// A drive of a group, and the group as planned: the one definition (topology/results/saturate.hpp), which
/// report renders as it is.
using PlannedDrive = results::SaturatePlannedDrive;

/// A planned group and, for a group found in the topology, the model's group it came from.
struct PlannedGroup : results::SaturateGroupPlan {
  std::optional<model::DriveGroup> topology_group;  ///< set for groups found in the topology
};

/// One pass over every group: the sequential pass and optionally the random one (each at the group's queue
/// depth).
using PassSpec = results::SaturatePassSpec;

struct SaturatePlan {
  std::vector<PlannedGroup> groups;
  std::vector<std::string> notes;  ///< for stderr: drives left out and why
};

/// Groups of `--group` declarations. Queue depth: `qd` or kQueuedQueueDepth.
SaturatePlan plan_declared(std::span<const common::GroupSpec> specs, std::optional<unsigned> qd);

/// Groups of the USB drives of `t` (only those named in `only`, "sdb" or "/dev/sdb", when not empty) by
/// shared_node_groups(). Queue depth: `qd`, else the deepest protocol depth among the group's drives (a BOT
/// drive next to a UAS one still gets the same load: the kernel holds what the device cannot take).
SaturatePlan plan_topology(const topology::Topology& t, std::span<const std::string> only,
                           std::optional<unsigned> qd,
                           const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::analysis::saturate
