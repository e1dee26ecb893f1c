// make_plan(): the planner's steps in order (drives, connectors, the current placement, search, answer).
#include "src/analysis/plan/planner.hpp"

#include <algorithm>

#include "src/analysis/plan/internal.hpp"

namespace usbsat::analysis::plan {

using topology::Severity;
using topology::Topology;

std::string new_drive_name(unsigned i) {
  return "drive " + std::to_string(i);
}

Plan make_plan(const Topology& t, const PlanRequest& req, const topology::CapacityModel& m) {
  Plan plan;
  plan.prefer = req.prefer;
  plan.replace = !req.devices.empty();
  plan.requested = plan.replace ? req.devices.size() : req.new_drives;

  // 1. The drives: connected ones resolved to their USB device (the whole device moves), or N new ones.
  auto [drives, movable, diagnostics] = detail::requested_drives(t, req);
  plan.diagnostics = std::move(diagnostics);

  // 2. The connectors: free ones and those of the drives being re-placed.
  auto slots = usable_slots(t, movable);
  detail::locate_current(t, slots, drives);
  if (drives.empty()) return plan;
  if (slots.size() < drives.size()) {
    plan.diagnostics.push_back({Severity::Error, "plan",
                                "only " + std::to_string(slots.size()) + " usable connectors for " +
                                    std::to_string(drives.size()) + " drives"});
    return plan;
  }

  // 3. The current placement's prediction, to compare with (re-place mode).
  if (plan.replace) {
    // The same demands as the plan's drives (a drive without one: its current link's ceiling).
    std::vector<model::DemandSpec> specs;
    for (const auto& d : drives) specs.push_back({d.name, d.demand, d.basis});
    plan.current = model::predict_fair_share(model::make_problem(t, specs, m));
  }

  // 4. Search.
  const bool superspeed = std::any_of(drives.begin(), drives.end(), [](const detail::DriveModel& d) {
    return topology::is_superspeed(d.capable);
  });
  detail::Scorer scorer(t, m, slots);
  auto found = detail::search(scorer, drives, req.prefer, req.exhaustive_limit);
  plan.method = std::move(found.method);
  plan.classes = found.classes;
  plan.evaluated = scorer.evaluated();
  plan.slots = slots;
  if (!found.best) {
    plan.diagnostics.push_back({Severity::Error, "plan", "no connector can take these drives"});
    return plan;
  }
  const auto& best = *found.best;

  // 5. The answer, in request order.
  plan.min = best.min;
  plan.total = best.total;
  plan.moves = best.moves;
  plan.already_optimal = plan.replace && best.moves == 0 && !found.improvable;
  plan.headroom = detail::headroom(scorer.problem(drives, best.links), best.prediction);
  for (std::size_t i = 0; i < drives.size(); ++i) {
    Placement p;
    p.drive = drives[i].name;
    p.connector = slots[best.slots[i]].connector;
    p.port = best.links[i].port;
    p.superspeed = best.links[i].superspeed;
    p.rate = best.links[i].rate;
    p.protocol = best.links[i].protocol;
    p.prediction = best.prediction.drives[i];
    p.from = drives[i].current_connector;
    if (drives[i].usb_device) p.from_port = topology::parent(t, *drives[i].usb_device);
    p.moved = p.from && *p.from != p.connector;
    plan.placements.push_back(std::move(p));
  }
  plan.avoid = detail::avoid_notes(t, slots, plan, superspeed, m);
  return plan;
}

}  // namespace usbsat::analysis::plan
