#pragma once
/// Prediction of concurrent throughput: each drive's share under max-min fair progressive filling over the
/// shared resources on the paths to the root (topology/capacity/bandwidth.hpp), the resource that stops it
/// (its bottleneck), and a Boost.Graph max-flow/min-cut over the same resources as an aggregate upper bound.
///
/// Max-min fairness is the standard model for competing bulk flows (Bertsekas & Gallager, "Data Networks",
/// 6.5.2): raise every unfrozen drive's rate together; a drive freezes when its demand is met or a resource
/// on its path fills up. USB bulk scheduling (round-robin over endpoints) and PCIe credit-based flow control
/// both share a saturated link roughly equally between active streams, which is what this predicts.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/basis.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/predict.hpp"

namespace usbsat::analysis::model {

using topology::Bandwidth;

/// Where a drive's demand figure came from: topology::BasisKind (given > measured > estimated > link
/// ceiling; demand.hpp chooses), its words topology::Basis.
using DemandSource = topology::BasisKind;
using topology::to_string;

/// One drive to predict: its block device name ("sdb"; "/dev/sdb" is accepted) and optional demand.
struct DemandSpec {
  std::string dev;
  std::optional<Bandwidth> demand;             ///< nullopt: the drive's own link ceiling
  topology::Basis basis{DemandSource::Given};  ///< used when `demand` is set
};

/// One drive of a flow problem.
struct FlowDrive {
  std::string dev;  ///< block device name, "sdb"
  Bandwidth demand;
  topology::Basis basis;          ///< why `demand` is what it is
  std::vector<std::size_t> path;  ///< indices into FlowProblem::resources, nearest to the drive first
};

/// Drives and the resources they cross; the input of both predictors. Resources are unique by id.
struct FlowProblem {
  std::vector<topology::Resource> resources;
  std::vector<FlowDrive> drives;
  std::vector<topology::Diagnostic> diagnostics;  ///< drives that could not be placed (unknown, no demand)
};

/// Drives of a scanned topology: each resolved by block name; its path from path_resources(). A drive that
/// is not in the topology, or has neither a demand nor a known link ceiling, is left out with a diagnostic.
FlowProblem make_problem(const topology::Topology& t, std::span<const DemandSpec> drives,
                         const topology::CapacityModel& m = topology::nominal_model());

/// Drives without topology (`--group NAME=/dev/a,/dev/b@CAP`): one Declared resource called `name` with the
/// declared capacity (none: nothing shared is modelled). Every drive needs a demand here.
FlowProblem declared_problem(const std::string& name, std::span<const DemandSpec> drives,
                             std::optional<Bandwidth> capacity);

/// The prediction's types: the one definition (topology/results/predict.hpp), which report renders as it is.
using results::Bottleneck;
using results::DrivePrediction;
using results::Prediction;
using results::ResourceLoad;

/// Max-min fair progressive filling. Among several resources that fill at the same moment on a drive's path,
/// the bottleneck named is the narrowest, then the nearest to the drive: with a USB 2.0 hub on an EHCI bus,
/// both 40 MB/s, the hub uplink is named, because moving a drive off the hub is the first thing to try and
/// the bus is only reached through it. Deterministic: the result depends only on the problem's order.
Prediction predict_fair_share(const FlowProblem& p);

/// The aggregate bound: max flow from a source (edges = demands) through each resource (edge = capacity,
/// unmodelled = unlimited) to a sink, computed with boost::push_relabel_max_flow.
using results::MaxFlowBound;
MaxFlowBound max_flow_bound(const FlowProblem& p);

}  // namespace usbsat::analysis::model
