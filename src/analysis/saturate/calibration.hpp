#pragma once
/// What a judged group of drives tells about a modelled resource's real capacity, for the history store to
/// remember (topology/history) and `plan`, `doctor`, `report` and `export` to use in place of the table's
/// figure (topology::CapacityModel::calibrated). Rules (pure):
///   - contention (saturated or unexplained) with a plateau: the resource the verdict names, when it names
///     one; else the nearest shared resource on the drives' common path (the limit is there or above it, and
///     that resource bounds every drive of the group): its capacity is the plateau;
///   - no contention although the model predicted some in the judged phase: the resource the model said
///     would stop them carries at least the measured aggregate;
///   - nothing for a user's --group (no topology) or a phase without a plateau.
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/saturate/attribution.hpp"

namespace usbsat::analysis::saturate {

struct MeasuredCapacity {
  topology::Resource resource;  ///< as the table models it (its capacity: the table's figure)
  double mbs = 0;               ///< what was measured
  bool at_least = false;        ///< no contention at this aggregate: the capacity is at least this
  std::vector<std::string> drives;
};

std::optional<MeasuredCapacity> measured_capacity(const GroupInput& in, const GroupVerdict& v);

}  // namespace usbsat::analysis::saturate
