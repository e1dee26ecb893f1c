#pragma once
/// The bandwidth model's prediction (analysis/model/predict.hpp), defined once (issue 40): each drive's
/// predicted share and the resource that stops it, the load on each resource, and the max-flow bound.
/// Header-only, below both src/analysis and report: the model returns these and report renders them as they
/// are (`plan --predict`, the `report` page, `topo --dot`), with no mirror type in between (shared/STYLE.md
/// G1).
#include <optional>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/basis.hpp"

namespace usbsat::results {

/// The saturated resource that stopped a drive.
struct Bottleneck {
  std::string resource;  ///< resource id, "pcie_link:0000:03:00.0"
  std::string node;      ///< node id, "0000:03:00.0"
  topology::ResourceKind kind = topology::ResourceKind::DriveLink;
  topology::Bandwidth capacity;
  std::string label;                              ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042)"
  std::optional<topology::Basis> capacity_basis;  ///< a measured capacity (Resource::capacity_basis)
  bool operator==(const Bottleneck&) const = default;
};

/// One drive's predicted share: {"dev","demand_mbs","predicted_mbs","bottleneck":{"node","kind",
/// "capacity_mbs"}} in JSON.
struct DrivePrediction {
  std::string dev;
  topology::Bandwidth demand;
  topology::Basis basis;  ///< why `demand` is what it is
  topology::Bandwidth predicted;
  std::optional<Bottleneck>
      bottleneck;  ///< nullopt: the drive gets its whole demand, nothing shared stops it
};

/// Load the prediction puts on one resource (utilization for reports).
struct ResourceLoad {
  std::string resource;
  topology::Bandwidth load;
  std::optional<topology::Bandwidth> capacity;
  unsigned drives = 0;     ///< drives crossing it
  bool saturated = false;  ///< load reached capacity
};

/// Every drive's share and every resource's load.
struct Prediction {
  std::vector<DrivePrediction> drives;  ///< in FlowProblem order
  std::vector<ResourceLoad> resources;  ///< in FlowProblem order
  topology::Bandwidth aggregate;        ///< sum of predicted rates
};

/// The aggregate bound: the max flow from the drives' demands through the resources, and its minimum cut.
struct MaxFlowBound {
  topology::Bandwidth max_flow;
  /// The edges of a minimum cut: resource ids, or "demand:<dev>" where a drive's own demand is the limit.
  std::vector<std::string> min_cut;
};

}  // namespace usbsat::results
