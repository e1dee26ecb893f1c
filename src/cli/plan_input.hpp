#pragma once
/// A plan as report/ consumes it: the planner's plan as it is (topology/results/plan.hpp) with its connectors
/// and ports named in the user's terms, which only the topology knows. The one conversion of `usbsat plan`.
#include <optional>

#include "report/plan_report.hpp"
#include "src/analysis/plan/planner.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

/// `plan` for the renderers: each placement's connector, port and controller, the connectors to avoid by
/// id, and the current placement's drives with their places (model `m`: their published measurements).
report::PlanInput to_report(const topology::Topology& t, const analysis::plan::Plan& plan,
                            std::optional<topology::Bandwidth> common, const topology::CapacityModel& m);

}  // namespace usbsat::cli
