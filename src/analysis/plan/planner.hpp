#pragma once
/// The placement planner behind `usbsat plan`: where should N new drives (or these connected drives) go so
/// that, running at once, the slowest one is as fast as possible, then the total is as high as possible.
///
/// A candidate placement puts each drive on a physical connector (Topology::connectors()). The drive's path
/// is its hypothetical link on the side of the connector it would use (the USB3 side when both the drive
/// and the connector are SuperSpeed, else the USB2 side) followed by upstream_resources() of that port:
/// hub uplinks, the EHCI/OHCI/UHCI bus, the controller and its PCIe chain. The same max-min fair prediction
/// as `plan --predict` (src/analysis/model/predict.hpp) then gives every drive's share, so the planner can
/// never disagree with the model it reports.
///
/// Files: slots.cpp, drive_model.cpp, scoring.cpp, search.cpp, advice.cpp, current.cpp, planner.cpp
/// (make_plan); internal.hpp holds what they share.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/predict.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/history/store.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/plan.hpp"

namespace usbsat::analysis::plan {

using model::Bandwidth;
using model::DrivePrediction;
using model::FlowProblem;
using model::Prediction;

/// What to optimise first (`--prefer`): the one definition (topology/results/plan.hpp).
using results::parse_preference;
using results::PlanPreference;
using results::to_string;

/// "drive 3": the name of new drive `i` (1-based) in a plan for new drives, and in its per-drive demands.
std::string new_drive_name(unsigned i);

/// The question. Either `devices` (connected drives to re-place) or `new_drives` > 0.
struct PlanRequest {
  std::vector<std::string> devices;  ///< block names ("sdb" or "/dev/sdb") of connected drives to re-place
  unsigned new_drives = 0;           ///< N drives not connected yet (assumed SuperSpeed + UAS capable)
  std::optional<Bandwidth> demand;   ///< every drive's demand; nullopt: its link ceiling on each connector
  std::map<std::string, Bandwidth, std::less<>> per_drive;  ///< `--demand sdb=170M` overrides `demand`
  /// What the drives measured before (model/demand.hpp: a connected drive's demand without a given one is
  /// its measurement, else its medium's estimate, else each candidate link's ceiling); nullptr: nothing.
  const history::Store* history = nullptr;
  PlanPreference prefer = PlanPreference::Speed;
  /// Class assignments up to this many are searched exhaustively, beyond it greedy + local improvement.
  std::size_t exhaustive_limit = 20000;
};

/// The plan's types: the one definition (topology/results/plan.hpp), which report renders as it is.
using results::AvoidNote;
using results::Headroom;
using results::Placement;
using results::Plan;
using results::PlanSlot;

/// Usable connectors: not `not used`, not `hardwired` (internal devices, rate-matching hubs), and free —
/// or occupied by one of `movable` (the drives being re-placed). In Topology::connectors() order.
std::vector<PlanSlot> usable_slots(const topology::Topology& t, const std::vector<topology::Vertex>& movable);

/// Choose the placement. Deterministic: the result depends only on the topology and the request.
/// An empty placement list with a diagnostic when nothing fits (no free connector, unknown device).
Plan make_plan(const topology::Topology& t, const PlanRequest& req,
               const topology::CapacityModel& m = topology::nominal_model());

/// `plan --predict`: every USB whole disk with media (or only `devices` when given), with demands by
/// model/demand.hpp (`per_drive` given, else measured in `store`, else estimated, else the link ceiling),
/// run through make_problem() and predict_fair_share().
FlowProblem current_problem(const topology::Topology& t, const std::vector<std::string>& devices,
                            const std::map<std::string, Bandwidth, std::less<>>& per_drive,
                            const history::Store* store = nullptr,
                            const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::analysis::plan
