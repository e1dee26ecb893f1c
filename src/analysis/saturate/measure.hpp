#pragma once
/// Step 2 of `usbsat saturate`: run every phase through an injected PhaseRunner (load::run_load in the
/// binary, a fake in tests), reusing a drive's solo baseline across groups, dropping a drive that fails,
/// stopping cleanly on a stop request (finished phases are kept).
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/steady.hpp"
#include "src/analysis/saturate/attribution.hpp"
#include "src/analysis/saturate/saturate_plan.hpp"

namespace usbsat::analysis::saturate {

/// Runs one load::RunConfig over some targets (load::run_load in the binary).
using PhaseRunner = std::function<load::RunResult(const std::vector<load::RunTarget>&, const load::RunConfig&,
                                                  std::stop_token, const load::SnapshotFn&)>;

/// Which step is running, for progress output.
struct StepInfo {
  std::string group;
  std::string pass;       ///< pattern name
  std::string what;       ///< "sdb alone", "2 at once"
  std::size_t index = 0;  ///< 0-based step over the whole run
  std::size_t count = 0;  ///< planned steps (an upper bound when drives fail)
};
using StepSnapshotFn = std::function<void(const StepInfo&, const load::Snapshot&)>;

struct SaturateSettings {
  /// runtime, ramp, seed and --qd as queue_depth (pattern and block size come from the passes; each group
  /// runs at its planned depth, which is queue_depth when --qd was given)
  load::JobSpec job;
  bool qd_given = false;  ///< --qd was given: every group runs at job.queue_depth, else by protocol
  std::string engine{load::default_engine()};  ///< already chosen (load::choose_engine)
  unsigned repeat = 1;
  std::vector<PassSpec> passes{PassSpec{}};
  /// End each phase when every drive's rate has settled (load/steady.hpp; job.runtime is then the most a
  /// phase measures, job.ramp the least ramp); nullopt (`--steady off`): every phase measures job.runtime.
  std::optional<load::SteadyRule> steady = load::SteadyRule{};
  /// The queue depth every group must run at (--qd), nullopt when each group's depth is by protocol.
  std::optional<unsigned> forced_qd() const {
    return qd_given ? std::optional<unsigned>(job.queue_depth) : std::nullopt;
  }
};

/// A drive whose run failed: which drive, in which pass and phase, and the error (the one definition,
/// topology/results/saturate.hpp).
using DriveFailure = results::SaturateFailure;

/// The measurement of one group in one pass.
struct GroupPassMeasurement {
  std::vector<PhaseMeasurement> phases;  ///< n == 1 first (every healthy drive), then the concurrent ones
  bool complete = true;
};

struct SaturateMeasurement {
  /// [group][pass], in plan and settings order; groups never reached (interrupted) have empty phases.
  std::vector<std::vector<GroupPassMeasurement>> groups;
  /// failures per group (a drive that failed in a solo phase is reported in every group it belongs to).
  std::vector<std::vector<DriveFailure>> failures;
  bool interrupted = false;
};

/// Measure every group of `plan`. `targets` maps a drive's path to its opened target; drives without one
/// are skipped (they could not be opened). Solo baselines are measured once per drive and pass and reused
/// by every group containing the drive. A concurrent phase runs the first n healthy drives of the group; a
/// drive that fails is recorded and left out of later phases, and the failing run's numbers are not used.
SaturateMeasurement measure(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
                            const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
                            const StepSnapshotFn& on_snapshot = {});

/// Planned steps of a run (for progress): solos (first occurrence of each drive) + concurrent levels, per
/// pass, times repeat.
std::size_t planned_steps(const SaturatePlan& plan, const SaturateSettings& settings);

}  // namespace usbsat::analysis::saturate
