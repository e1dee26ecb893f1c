#include "src/cli/predict_input.hpp"

#include "src/analysis/plan/planner.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::cli {

std::optional<report::PlanBottleneck> to_report(const std::optional<analysis::model::Bottleneck>& b) {
  if (!b) return std::nullopt;
  return report::PlanBottleneck{
      b->node, std::string(topology::to_string(b->kind)), b->capacity.mbs(), b->label,
      b->capacity_basis ? std::optional(topology::describe_capacity_basis(*b->capacity_basis, b->capacity))
                        : std::nullopt};
}

report::PredictRow to_report(const topology::Topology& t, const analysis::model::DrivePrediction& d,
                             const topology::CapacityModel& m) {
  const auto v = t.find_by_name(d.dev);
  const auto published = v ? topology::published_for_drive(t, *v, m) : std::nullopt;
  return {d.dev,
          v ? topology::drive_where(t, *v) : "",
          d.demand.mbs(),
          std::string(topology::to_string(d.basis.kind)),
          topology::describe_basis(d.basis),
          topology::basis_short(d.basis),
          d.predicted.mbs(),
          to_report(d.bottleneck),
          published ? std::optional(topology::describe_basis(*published)) : std::nullopt};
}

report::PredictInput to_report(const topology::Topology& t, const analysis::model::FlowProblem& p,
                               const analysis::model::Prediction& pred, const topology::CapacityModel& m) {
  report::PredictInput in;
  for (const auto& d : pred.drives) in.drives.push_back(to_report(t, d, m));
  in.aggregate_mbs = pred.aggregate.mbs();
  const auto bound = analysis::model::max_flow_bound(p);
  in.max_flow_mbs = bound.max_flow.mbs();
  in.min_cut = bound.min_cut;
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
