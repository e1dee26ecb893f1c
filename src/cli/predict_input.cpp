#include "src/cli/predict_input.hpp"

#include "src/analysis/plan/planner.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::cli {

report::PredictRow to_report(const topology::Topology& t, const analysis::model::DrivePrediction& d,
                             const topology::CapacityModel& m) {
  const auto v = t.find_by_name(d.dev);
  return {d, v ? topology::drive_where(t, *v) : "",
          v ? topology::published_for_drive(t, *v, m) : std::nullopt};
}

report::PredictInput to_report(const topology::Topology& t, const analysis::model::FlowProblem& p,
                               const analysis::model::Prediction& pred, const topology::CapacityModel& m) {
  report::PredictInput in;
  for (const auto& d : pred.drives) in.drives.push_back(to_report(t, d, m));
  in.aggregate = pred.aggregate;
  in.bound = analysis::model::max_flow_bound(p);
  in.diagnostics = p.diagnostics;
  return in;
}

CurrentPrediction predict_current(const topology::Topology& t, const HistoryContext& h) {
  CurrentPrediction c{analysis::plan::current_problem(t, {}, {}, &h.store, h.model), {}, {}};
  c.prediction = analysis::model::predict_fair_share(c.problem);
  std::vector<analysis::model::DemandSpec> ceilings;
  for (const auto& d : c.problem.drives)
    ceilings.push_back({d.dev, std::nullopt, topology::Basis{analysis::model::DemandSource::LinkCeiling}});
  c.at_ceiling = analysis::model::predict_fair_share(analysis::model::make_problem(t, ceilings, h.model));
  return c;
}

}  // namespace usbsat::cli
