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

report::SaturatePass to_pass(const analysis::saturate::GroupVerdict& v,
                             const analysis::saturate::PassSpec& pass, unsigned qd, bool complete) {
  report::SaturatePass p;
  p.pattern = std::string(load::to_string(pass.pattern));
  p.bs = pass.block_size;
  p.qd = qd;
  p.complete = complete;
  bool judged = false;
  for (const auto& ph : v.phases) {
    report::SaturatePhaseRow row;
    row.n = ph.n;
    for (const auto& d : ph.drives) row.per_drive.push_back({d.dev, d.mbs, d.predicted_mbs});
    row.aggregate_mbs = ph.aggregate_mbs;
    row.solo_sum_mbs = ph.solo_sum_mbs;
    row.efficiency = ph.efficiency;
    row.predicted_aggregate_mbs = ph.predicted_aggregate_mbs;
    row.spread = ph.spread;
    row.repeats = ph.repeats;
    row.settled = ph.settled;
    row.settled_after_s = ph.settled_after_s;
    row.window_spread = ph.window_spread;
    if (ph.verdict) {
      row.verdict = std::string(analysis::saturate::to_string(*ph.verdict));
      judged = true;
    }
    p.phases.push_back(std::move(row));
  }
  p.tolerance = v.tolerance;
  p.confidence = std::string(analysis::saturate::to_string(v.confidence));
  p.notes = v.notes;
  if (!judged) {
    p.notes.push_back("no concurrent phase finished: no verdict");
    return p;
  }
  p.verdict = std::string(analysis::saturate::to_string(v.verdict));
  p.plateau_mbs = v.plateau_mbs;
  if (v.bottleneck) {
    const auto& b = *v.bottleneck;
    p.bottleneck = report::SaturateBottleneck{
        b.node, b.kind ? std::string(topology::to_string(*b.kind)) : "lowest_common_ancestor", b.capacity_mbs,
        b.label};
  }
  p.conclusion = analysis::saturate::conclusion(v);
  return p;
}

}  // namespace

report::SaturateReport build_report(const analysis::saturate::SaturatePlan& plan,
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
    report::SaturateGroup out;
    out.name = g.name;
    out.node_kind = g.node_kind;
    out.node_id = g.node_id;
    out.node_label = g.node_label;
    if (g.declared_capacity) out.declared_capacity_mbs = g.declared_capacity->mbs();
    if (g.topology_group) out.same_drives_as = g.topology_group->same_drives_as;
    for (const auto& d : g.drives) out.drives.push_back({d.dev, d.path, d.where});
    out.qd_reason = g.qd_reason;
    out.levels = g.levels;
    if (m) {
      for (const auto& f : m->failures.at(gi)) out.failures.push_back({f.dev, f.pass, f.n, f.message});
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
        out.passes.push_back(to_pass(verdict, settings.passes[pi], g.qd, gm.complete));
      }
    }
    r.groups.push_back(std::move(out));
  }
  return r;
}

void say_calibrated(report::SaturateReport& r, const std::vector<GroupCapacity>& capacities) {
  for (const auto& gc : capacities) {
    auto& notes = r.groups.at(gc.group).passes.at(gc.pass).notes;
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
