#include "src/analysis/saturate/measure.hpp"

#include <algorithm>
#include <set>

#include "topology/base/text.hpp"

namespace usbsat::analysis::saturate {
namespace {

std::string level_label(unsigned n) {
  return n == 1 ? "alone" : std::to_string(n) + " at once";
}

/// One more run of a drive: its rate, and how it settled when the rule was on.
void append(DriveRates& to, const DriveRates& run) {
  to.mbs.insert(to.mbs.end(), run.mbs.begin(), run.mbs.end());
  to.settle.insert(to.settle.end(), run.settle.begin(), run.settle.end());
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

namespace {

/// One measurement of a plan: the state the steps share (failed drives, solo baselines, the step counter).
class Measurement {
 public:
  Measurement(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
              const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
              const StepSnapshotFn& on_snapshot)
      : plan_(plan),
        targets_(targets),
        settings_(settings),
        run_(run),
        stop_(std::move(stop)),
        on_snapshot_(on_snapshot),
        repeat_(std::max(1u, settings.repeat)),
        steps_(planned_steps(plan, settings)),
        solo_cache_(settings.passes.size()) {
    out_.groups.assign(plan.groups.size(), std::vector<GroupPassMeasurement>(settings.passes.size()));
    out_.failures.resize(plan.groups.size());
  }

  SaturateMeasurement run() && {
    for (std::size_t gi = 0; gi < plan_.groups.size() && !out_.interrupted; ++gi)
      for (std::size_t pi = 0; pi < settings_.passes.size() && !out_.interrupted; ++pi) {
        auto& gm = out_.groups[gi][pi];
        gm.complete = false;
        carry_failures(gi, pi);
        if (!solo_phase(gi, pi, gm)) break;
        concurrent_phases(gi, pi, gm);
        gm.complete = !out_.interrupted;
      }
    return std::move(out_);
  }

 private:
  /// One run of `paths` at once; each drive's MB/s (over the settled window when the phase settled) and how
  /// it settled, or nullopt when interrupted or a drive failed (it is recorded, and left out of later
  /// phases).
  std::optional<std::vector<DriveRates>> run_once(std::size_t gi, std::size_t pi, unsigned n,
                                                  const std::vector<std::string>& paths,
                                                  const std::string& what) {
    const auto& pass = settings_.passes[pi];
    std::vector<load::RunTarget> rts;
    for (const auto& p : paths) rts.push_back(targets_.at(p));
    load::RunConfig cfg;
    cfg.job = settings_.job;
    cfg.job.pattern = pass.pattern;
    cfg.job.block_size = pass.block_size;
    cfg.job.queue_depth = plan_.groups[gi].qd;
    cfg.engine = settings_.engine;
    cfg.steady = settings_.steady;
    cfg.phases = {load::PhaseTargets{}};
    for (std::size_t i = 0; i < paths.size(); ++i) cfg.phases[0].push_back(i);
    const StepInfo info{plan_.groups[gi].name, std::string(load::to_string(pass.pattern)), what, step_++,
                        steps_};
    load::SnapshotFn snap;
    if (on_snapshot_) snap = [&](const load::Snapshot& s) { on_snapshot_(info, s); };
    const auto res = run_(rts, cfg, stop_, snap);
    if (res.interrupted || stop_.stop_requested() || res.phases.empty() || !res.phases.front().complete) {
      out_.interrupted = true;
      return std::nullopt;
    }
    std::vector<DriveRates> rates;
    bool ok = true;
    const auto& steady = res.phases.front().steady;
    for (const auto& tr : res.phases.front().per_target) {
      const auto& path = paths.at(tr.target);
      if (tr.error) {
        ok = false;
        failed_.insert(path);
        failure_message_.emplace(path, *tr.error);
        out_.failures[gi].push_back({std::string(topology::strip_dev_prefix(path)),
                                     std::string(load::to_string(pass.pattern)), n, *tr.error});
      }
      rates.push_back(drive_rates(tr, steady));
    }
    if (!ok) return std::nullopt;
    return rates;
  }

  /// A drive's figures from one run: its rate over the settled window when the phase settled (the rate the
  /// rule found flat; the ramp and any transient after it are outside), else over the whole measured time.
  static DriveRates drive_rates(const load::TargetResult& tr,
                                const std::optional<load::SteadyOutcome>& steady) {
    DriveRates d{"", {tr.stats.mbs()}, {}};
    if (!steady || tr.target >= steady->targets.size()) return d;
    if (const double w = steady->targets[tr.target].mbs; steady->settled && w > 0) d.mbs.front() = w;
    // The rule judged the phase's aggregate (load/steady_sampler.hpp): its spread is the run's.
    d.settle.push_back({steady->settled, static_cast<double>(steady->after_ns) / 1e9, steady->spread()});
    return d;
  }

  /// A drive that could not be opened is failed; one that failed in an earlier group's solo phase is
  /// reported in this group too.
  void carry_failures(std::size_t gi, std::size_t pi) {
    for (const auto& d : plan_.groups[gi].drives) {
      if (!targets_.contains(d.path)) failed_.insert(d.path);
      if (auto it = failure_message_.find(d.path); it != failure_message_.end()) {
        const bool listed = std::any_of(out_.failures[gi].begin(), out_.failures[gi].end(),
                                        [&](const auto& f) { return f.dev == d.dev; });
        if (!listed)
          out_.failures[gi].push_back(
              {d.dev, std::string(load::to_string(settings_.passes[pi].pattern)), 1, it->second});
      }
    }
  }

  /// Solo baselines (each drive alone), reused across groups. False when interrupted (the drives measured
  /// so far are kept).
  bool solo_phase(std::size_t gi, std::size_t pi, GroupPassMeasurement& gm) {
    PhaseMeasurement solo{1, {}};
    for (const auto& d : plan_.groups[gi].drives) {
      if (failed_.contains(d.path)) continue;
      auto& cached = solo_cache_[pi][d.path];
      cached.dev = d.dev;
      while (cached.mbs.size() < repeat_ && !failed_.contains(d.path)) {
        const auto r = run_once(gi, pi, 1, {d.path}, d.dev + " alone");
        if (out_.interrupted) break;
        if (r) append(cached, r->front());
      }
      if (out_.interrupted) break;
      if (!failed_.contains(d.path)) solo.drives.push_back(cached);
    }
    if (out_.interrupted && solo.drives.empty()) return false;
    gm.phases.push_back(std::move(solo));
    return !out_.interrupted;
  }

  /// Concurrent phases: the first n healthy drives at once, each level once.
  void concurrent_phases(std::size_t gi, std::size_t pi, GroupPassMeasurement& gm) {
    const auto& g = plan_.groups[gi];
    std::set<unsigned> done;
    for (unsigned level : g.levels) {
      if (level < 2) continue;
      std::vector<const PlannedDrive*> healthy;
      for (const auto& d : g.drives)
        if (!failed_.contains(d.path)) healthy.push_back(&d);
      const auto n = static_cast<unsigned>(std::min<std::size_t>(level, healthy.size()));
      if (n < 2 || done.contains(n)) continue;
      std::vector<std::string> paths;
      PhaseMeasurement pm{n, {}};
      for (unsigned i = 0; i < n; ++i) {
        paths.push_back(healthy[i]->path);
        pm.drives.push_back({healthy[i]->dev, {}});
      }
      for (unsigned r = 0; r < repeat_; ++r) {
        const auto res = run_once(gi, pi, n, paths, level_label(n));
        if (!res) break;  // interrupted, or a drive failed: this phase is not used
        for (unsigned i = 0; i < n; ++i) append(pm.drives[i], (*res)[i]);
      }
      if (out_.interrupted) break;
      if (!pm.drives.front().mbs.empty() &&
          std::none_of(paths.begin(), paths.end(), [&](const auto& p) { return failed_.contains(p); })) {
        done.insert(n);
        gm.phases.push_back(std::move(pm));
      }
    }
  }

  const SaturatePlan& plan_;
  const std::map<std::string, load::RunTarget>& targets_;
  const SaturateSettings& settings_;
  const PhaseRunner& run_;
  std::stop_token stop_;
  const StepSnapshotFn& on_snapshot_;
  const unsigned repeat_;
  const std::size_t steps_;
  std::size_t step_ = 0;
  SaturateMeasurement out_;
  std::set<std::string> failed_;                               // paths
  std::map<std::string, std::string> failure_message_;         // path -> first error
  std::vector<std::map<std::string, DriveRates>> solo_cache_;  // [pass] path -> its solo runs
};

}  // namespace

SaturateMeasurement measure(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
                            const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
                            const StepSnapshotFn& on_snapshot) {
  return Measurement(plan, targets, settings, run, std::move(stop), on_snapshot).run();
}

}  // namespace usbsat::analysis::saturate
