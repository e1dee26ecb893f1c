#pragma once
/// The bandwidth model's prediction as report/ consumes it (`plan --predict`, the `report` page and the
/// `topo --dot` drive labels): the prediction as it is (topology/results/predict.hpp) with each drive's place
/// and published measurement, which only the topology knows. One conversion, shared.
#include <optional>

#include "report/plan_report.hpp"
#include "src/analysis/model/predict.hpp"
#include "src/cli/history_context.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

/// One drive's prediction for the renderers, with the published measurement of its setup in model `m`.
report::PredictRow to_report(const topology::Topology& t, const analysis::model::DrivePrediction& d,
                             const topology::CapacityModel& m);
/// A prediction over `p` (with its max-flow cross-check) for the renderers.
report::PredictInput to_report(const topology::Topology& t, const analysis::model::FlowProblem& p,
                               const analysis::model::Prediction& pred, const topology::CapacityModel& m);

/// `plan --predict`'s model of every USB drive with media as plugged in now, each at its demand (measured,
/// estimated or its link's ceiling: model/demand.hpp, with `h`'s store and capacities): the problem and its
/// prediction, and the same drives each at its link's ceiling. The doctor's shared_bandwidth check predicts
/// the same problems (analysis::doctor::PredictedShares), so `export` and `report` compute them once for
/// both.
struct CurrentPrediction {
  analysis::model::FlowProblem problem;
  analysis::model::Prediction prediction;
  analysis::model::Prediction at_ceiling;
};
CurrentPrediction predict_current(const topology::Topology& t, const HistoryContext& h);

}  // namespace usbsat::cli
