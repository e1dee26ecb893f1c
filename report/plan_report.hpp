#pragma once
/// `usbsat plan` and `usbsat plan --predict`: pure text and JSON renderers over the planner's plan and the
/// model's prediction as they are (topology/results/plan.hpp, predict.hpp), with what only the topology
/// knows added by one conversion each (src/cli/plan_input.cpp, predict_input.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/style.hpp"
#include "topology/capacity/basis.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/results/plan.hpp"
#include "topology/results/predict.hpp"

namespace usbsat::report {

/// One drive of a prediction: the model's prediction as it is, and where the drive is in the user's terms.
struct PredictRow {
  results::DrivePrediction prediction;
  std::string where;  ///< topology::drive_where(): "port 3", "port 2 of hub 2-1" ("" when unknown)
  /// a published measurement of the drive's setup, limiting or not (topology::published_for_drive); nullopt:
  /// none
  std::optional<topology::Basis> published;
};

/// `plan --predict`: the drives' rows, the aggregate and its max-flow cross-check.
struct PredictInput {
  std::vector<PredictRow> drives;
  topology::Bandwidth aggregate;  ///< results::Prediction::aggregate
  results::MaxFlowBound bound;    ///< the max-flow cross-check of the aggregate and its minimum cut
  std::vector<topology::Diagnostic> diagnostics;
  TextStyle style{};  ///< text: the width the table fits (the "limited by" column gives way)
};

/// Where a placement's connectors and ports are, in the user's terms (the plan has topology indices).
struct PlanPlace {
  topology::ConnectorSummary connector;  ///< where it goes
  std::string port;                      ///< the side it uses: "usb2-port3"
  topology::ControllerSummary controller;
  std::optional<topology::ConnectorSummary> from;  ///< where it is now (re-place mode)
  std::optional<std::string> from_port;            ///< the port it uses now ("usb4-port1")
};

/// `plan --drives N` / `plan DEV...`: the planner's plan as it is, with its connectors named.
struct PlanInput {
  results::Plan plan;
  std::optional<topology::Bandwidth> demand;               ///< the common demand when given
  std::vector<PlanPlace> places;                           ///< one per plan.placements, in the same order
  std::vector<std::vector<std::string>> avoid_connectors;  ///< one per plan.avoid: connector ids
  std::optional<PredictInput> current;  ///< re-place mode: plan.current with the drives' places
  TextStyle style{};                    ///< text: the width the table fits (the controller column gives way)
};

/// {"drives":[{"dev","where","demand_mbs","demand_source","demand_basis","predicted_mbs","bottleneck":{"node",
///   "kind","capacity_mbs","label","capacity_basis"}|null}],"aggregate_mbs","max_flow_mbs","min_cut":[...],
///   "diagnostics":[...]}
std::string render_predict_json(const PredictInput& in);
/// A table of drives with demand, predicted share and bottleneck, then the aggregate and its cross-check.
std::string render_predict_text(const PredictInput& in);

/// {"mode":"new"|"replace","requested","prefer","demand_mbs","placements":[{"drive","connector":{...},"port",
///   "superspeed","controller":{...},"from":{...}|null,"moved","rate","protocol","demand_mbs",
///   "demand_source","demand_basis","predicted_mbs","bottleneck"}],"min_mbs","total_mbs","moves","already_optimal",
///   "headroom":{"resource","label","capacity_mbs","load_mbs","drives","per_drive_mbs"}|null,"current":{...}|null,
///   "avoid":[{"kind","node","capacity_mbs","connectors","reason"}],"search":{"method","classes",
///   "evaluated","usable_connectors"},"diagnostics":[...]}
std::string render_plan_json(const PlanInput& in);
/// The placement table in the user's terms (controller, port, speed, panel), the totals, what to avoid.
std::string render_plan_text(const PlanInput& in);

}  // namespace usbsat::report
