#include "src/cli/plan_input.hpp"

#include "src/cli/predict_input.hpp"
#include "topology/model/connectors.hpp"

namespace usbsat::cli {
namespace {

/// Where a placement goes (and is now), in the user's terms.
report::PlanPlace place_of(const topology::Topology& t, const analysis::plan::Placement& p) {
  report::PlanPlace at;
  at.connector = topology::summarize_connector(t, p.connector);
  at.port = t[p.port].as<topology::PortInfo>().name;
  at.controller = topology::summarize_controller(t, t.connectors()[p.connector].controller);
  if (p.from) at.from = topology::summarize_connector(t, *p.from);
  if (p.from_port) at.from_port = t[*p.from_port].as<topology::PortInfo>().name;
  return at;
}

}  // namespace

report::PlanInput to_report(const topology::Topology& t, const analysis::plan::Plan& plan,
                            std::optional<topology::Bandwidth> common, const topology::CapacityModel& m) {
  report::PlanInput in{plan, common, {}, {}, std::nullopt, {}};
  for (const auto& p : plan.placements) in.places.push_back(place_of(t, p));
  for (const auto& a : plan.avoid) {
    auto& ids = in.avoid_connectors.emplace_back();
    for (auto c : a.connectors) ids.push_back(t.connectors()[c].id);
  }
  if (plan.current) {
    report::PredictInput cur;
    for (const auto& d : plan.current->drives) cur.drives.push_back(to_report(t, d, m));
    cur.aggregate = plan.current->aggregate;
    in.current = std::move(cur);
  }
  return in;
}

}  // namespace usbsat::cli
