#include "src/analysis/saturate/measure.hpp"

#include <algorithm>
#include <set>

#include "topology/text.hpp"

namespace usbsat::analysis::saturate {
namespace {

std::string level_label(unsigned n) {
  return n == 1 ? "alone" : std::to_string(n) + " at once";
}

}  // namespace

std::size_t planned_steps(const SaturatePlan& plan, const SaturateSettings& settings) {
  std::size_t steps = 0;
  std::set<std::string> solo;
  for (const auto& g : plan.groups) {
    for (const auto& d : g.drives)
      if (solo.insert(d.path).second) steps += 1;
    steps += g.levels.size() - 1;
  }
  return steps * settings.passes.size() * std::max(1u, settings.repeat);
}

SaturateMeasurement measure(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
                            const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
                            const StepSnapshotFn& on_snapshot) {
  SaturateMeasurement out;
  out.groups.assign(plan.groups.size(), std::vector<GroupPassMeasurement>(settings.passes.size()));
  out.failures.resize(plan.groups.size());
  const unsigned repeat = std::max(1u, settings.repeat);
  const std::size_t steps = planned_steps(plan, settings);
  std::size_t step = 0;

  std::set<std::string> failed;                        // paths
  std::map<std::string, std::string> failure_message;  // path -> first error
  std::vector<std::map<std::string, std::vector<double>>> solo_cache(settings.passes.size());  // path -> MB/s

  // One run of `paths` at once; returns the per-drive MB/s, or nullopt when interrupted or a drive failed.
  auto run_once = [&](std::size_t gi, std::size_t pi, unsigned n, const std::vector<std::string>& paths,
                      unsigned qd, const std::string& what) -> std::optional<std::vector<double>> {
    const auto& pass = settings.passes[pi];
    std::vector<load::RunTarget> rts;
    for (const auto& p : paths) rts.push_back(targets.at(p));
    load::RunConfig cfg;
    cfg.job = settings.job;
    cfg.job.pattern = pass.pattern;
    cfg.job.block_size = pass.block_size;
    cfg.job.queue_depth = qd;
    cfg.engine = settings.engine;
    cfg.phases = {load::PhaseTargets{}};
    for (std::size_t i = 0; i < paths.size(); ++i) cfg.phases[0].push_back(i);
    const StepInfo info{plan.groups[gi].name, std::string(load::to_string(pass.pattern)), what, step++,
                        steps};
    load::SnapshotFn snap;
    if (on_snapshot) snap = [&](const load::Snapshot& s) { on_snapshot(info, s); };
    const auto res = run(rts, cfg, stop, snap);
    if (res.interrupted || stop.stop_requested() || res.phases.empty() || !res.phases.front().complete) {
      out.interrupted = true;
      return std::nullopt;
    }
    std::vector<double> mbs;
    bool ok = true;
    for (const auto& tr : res.phases.front().per_target) {
      const auto& path = paths.at(tr.target);
      if (tr.error) {
        ok = false;
        failed.insert(path);
        failure_message.emplace(path, *tr.error);
        out.failures[gi].push_back({std::string(topology::strip_dev_prefix(path)),
                                    std::string(load::to_string(pass.pattern)), n, *tr.error});
      }
      mbs.push_back(tr.stats.mbs());
    }
    if (!ok) return std::nullopt;
    return mbs;
  };

  for (std::size_t gi = 0; gi < plan.groups.size() && !out.interrupted; ++gi) {
    const auto& g = plan.groups[gi];
    for (std::size_t pi = 0; pi < settings.passes.size() && !out.interrupted; ++pi) {
      auto& gm = out.groups[gi][pi];
      gm.qd = settings.passes[pi].qd.value_or(g.qd);
      gm.complete = false;
      // A drive that failed in an earlier group's solo phase is reported here too.
      for (const auto& d : g.drives) {
        if (!targets.contains(d.path)) failed.insert(d.path);
        if (auto it = failure_message.find(d.path); it != failure_message.end()) {
          const bool listed = std::any_of(out.failures[gi].begin(), out.failures[gi].end(),
                                          [&](const auto& f) { return f.dev == d.dev; });
          if (!listed)
            out.failures[gi].push_back(
                {d.dev, std::string(load::to_string(settings.passes[pi].pattern)), 1, it->second});
        }
      }

      // 1. Solo baselines (each drive alone), reused across groups.
      PhaseMeasurement solo{1, {}};
      for (const auto& d : g.drives) {
        if (failed.contains(d.path)) continue;
        auto& cached = solo_cache[pi][d.path];
        while (cached.size() < repeat && !failed.contains(d.path)) {
          const auto r = run_once(gi, pi, 1, {d.path}, gm.qd, d.dev + " alone");
          if (out.interrupted) break;
          if (r) cached.push_back(r->front());
        }
        if (out.interrupted) break;
        if (!failed.contains(d.path)) solo.drives.push_back({d.dev, cached});
      }
      if (out.interrupted) {
        if (!solo.drives.empty()) gm.phases.push_back(std::move(solo));
        break;
      }
      gm.phases.push_back(std::move(solo));

      // 2. Concurrent phases: the first n healthy drives at once.
      std::set<unsigned> done;
      for (unsigned level : g.levels) {
        if (level < 2) continue;
        std::vector<const PlannedDrive*> healthy;
        for (const auto& d : g.drives)
          if (!failed.contains(d.path)) healthy.push_back(&d);
        const auto n = static_cast<unsigned>(std::min<std::size_t>(level, healthy.size()));
        if (n < 2 || done.contains(n)) continue;
        std::vector<std::string> paths;
        PhaseMeasurement pm{n, {}};
        for (unsigned i = 0; i < n; ++i) {
          paths.push_back(healthy[i]->path);
          pm.drives.push_back({healthy[i]->dev, {}});
        }
        for (unsigned r = 0; r < repeat; ++r) {
          const auto res = run_once(gi, pi, n, paths, gm.qd, level_label(n));
          if (!res) break;  // interrupted, or a drive failed: this phase is not used
          for (unsigned i = 0; i < n; ++i) pm.drives[i].mbs.push_back((*res)[i]);
        }
        if (out.interrupted) break;
        if (!pm.drives.front().mbs.empty() &&
            std::none_of(paths.begin(), paths.end(), [&](const auto& p) { return failed.contains(p); })) {
          done.insert(n);
          gm.phases.push_back(std::move(pm));
        }
      }
      gm.complete = !out.interrupted;
    }
  }
  return out;
}

}  // namespace usbsat::analysis::saturate
