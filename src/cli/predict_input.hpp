#pragma once
/// The bandwidth model's prediction as report/ consumes it (`plan --predict`, the `report` page and the
/// `topo --dot` drive labels): one conversion, shared.
#include <optional>

#include "report/plan_report.hpp"
#include "src/analysis/model/predict.hpp"
#include "topology/topology.hpp"

namespace usbsat::cli {

/// A limiting resource for the renderers.
std::optional<report::PlanBottleneck> to_report(const std::optional<analysis::model::Bottleneck>& b);

/// A prediction over `p` (with its max-flow cross-check) for the renderers.
report::PredictInput to_report(const topology::Topology& t, const analysis::model::FlowProblem& p,
                               const analysis::model::Prediction& pred);

/// `plan --predict` of every USB drive as plugged in now, every drive at its link ceiling.
report::PredictInput predict_current(const topology::Topology& t);

}  // namespace usbsat::cli
