#include "src/cli/saturate_input.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "src/analysis/saturate/attribution.hpp"
#include "src/analysis/saturate/group_input.hpp"
#include "src/analysis/saturate/verdict_text.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::cli {

namespace {

/// One pass as the report shows it: the verdict as it is, and its conclusion when some phase was judged.
report::SaturatePass to_pass(analysis::saturate::GroupVerdict v, const analysis::saturate::PassSpec& pass,
                             bool complete) {
  std::string conclusion = results::judged(v) ? analysis::saturate::conclusion(v) : std::string();
  return {pass, std::move(v), std::move(conclusion), complete};
}

}  // namespace

report::SaturateReport to_report(const analysis::saturate::SaturatePlan& plan,
                                 const analysis::saturate::SaturateSettings& settings,
                                 const analysis::saturate::SaturateMeasurement* m,
                                 const topology::Topology* t, std::optional<double> tolerance,
                                 std::vector<GroupCapacity>* capacities) {
  report::SaturateReport r;
  r.engine = settings.engine;
  r.runtime_s = static_cast<double>(settings.job.runtime.count()) / 1000.0;
  r.ramp_s = static_cast<double>(settings.job.ramp.count()) / 1000.0;
  r.repeat = std::max(1u, settings.repeat);
  r.steady = settings.steady;
  r.dry_run = m == nullptr;
  r.interrupted = m && m->interrupted;
  for (std::size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& g = plan.groups[gi];
    report::SaturateGroup out{g, {}, {}};  // the group as planned (results::SaturateGroupPlan)
    if (m) {
      out.failures = m->failures.at(gi);
      for (std::size_t pi = 0; pi < settings.passes.size(); ++pi) {
        const auto& gm = m->groups.at(gi).at(pi);
        if (gm.phases.empty()) continue;  // never reached
        analysis::saturate::GroupInput in;
        if (g.topology_group && t) {
          // The model in the pass's direction: a write pass meets a USB4 dock's DisplayPort streams.
          topology::CapacityModel model = topology::nominal_model();
          if (load::writes(settings.passes[pi].pattern)) model.direction = topology::Direction::Write;
          in = analysis::saturate::topology_group_input(*t, *g.topology_group, gm.phases, model);
        } else {
          std::vector<std::string> devs;
          for (const auto& d : g.drives) devs.push_back(d.dev);
          in = analysis::saturate::declared_group_input(g.name, devs, g.declared_capacity, gm.phases);
        }
        in.tolerance = tolerance;
        const auto verdict = analysis::saturate::attribute(in);
        if (capacities && settings.passes[pi].pattern == load::Pattern::Read)
          if (auto c = analysis::saturate::measured_capacity(in, verdict))
            capacities->push_back({gi, out.passes.size(), std::move(*c)});
        out.passes.push_back(to_pass(verdict, settings.passes[pi], gm.complete));
      }
    }
    r.groups.push_back(std::move(out));
  }
  return r;
}

void say_calibrated(report::SaturateReport& r, const std::vector<GroupCapacity>& capacities) {
  for (const auto& gc : capacities) {
    auto& notes = r.groups.at(gc.group).passes.at(gc.pass).result.notes;
    const auto& c = gc.capacity;
    const std::string model = c.resource.capacity ? "model " + topology::mbs_text(c.resource.capacity->mbs())
                                                  : std::string("not limited in the model");
    const std::string said =
        fmt::format("calibrated: the {} measured {}{} ({}); plan, doctor, report and export use it",
                    c.resource.label, c.at_least ? "at least " : "", topology::mbs_text(c.mbs), model);
    bool replaced = false;
    for (auto& n : notes)
      if (const auto at = n.find("could be calibrated"); at != std::string::npos) {
        n = n.substr(0, at) + "was calibrated (" + said.substr(12) + ")";
        replaced = true;
      }
    if (!replaced) notes.push_back(said);
  }
}

}  // namespace usbsat::cli
