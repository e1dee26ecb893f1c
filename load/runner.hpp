#pragma once
/// The runner: phases of concurrent workers, one std::jthread per target, started behind a latch so the
/// targets of a phase really overlap and measure one common window; periodic snapshots for live progress;
/// a stop_token that ends the run promptly (partial results are kept).
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "load/clock.hpp"
#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/phases.hpp"
#include "load/stats.hpp"
#include "load/steady.hpp"
#include "load/steady_sampler.hpp"

namespace usbsat::load {

/// A target as the runner sees it: an fd opened by the caller (borrowed for the run) and its geometry.
struct RunTarget {
  std::string label;  ///< shown in results, usually the path
  int fd = -1;
  std::uint64_t size_bytes = 0;
  std::uint32_t logical_block = 512;
};

struct RunConfig {
  JobSpec job;
  std::string engine{default_engine()};  ///< a name from engine_table(), already chosen
  std::vector<PhaseTargets> phases;
  std::chrono::milliseconds snapshot_interval{500};
  /// How long the workers of a phase, set up and waiting behind the latch, stay idle before its clock starts.
  /// A new thread starts with the scheduler's guess of its load (PELT: up to half a CPU), which decays by
  /// half every 32 ms of sleep; 250 ms takes it from 512 to 2. Without this, a scheduler that places tasks by
  /// that load (this bench VM's vCPU packing) ran a worker at queue depth 1 as a busy one for the whole
  /// phase: on a loop device, 4k random reads 36k/s against 55k/s after the wait, fio 61k (its jobs wait for
  /// their start signal too; issue 25, tests/bench/README.md).
  std::chrono::milliseconds settle{250};
  /// Keep each worker on one CPU, the allowed CPUs in turn (`load --pin-cpus`). Off by default: a kept
  /// worker cannot leave a CPU that other work holds, and drives sharing a bus then split it unevenly.
  bool pin_workers = false;
  /// End each phase when its rate has settled (steady.hpp): job.ramp is then the least ramp (the rule's own
  /// `ramp` is replaced by it) and job.runtime the most a phase measures. nullopt: every phase measures its
  /// full runtime.
  std::optional<SteadyRule> steady;
};

/// One target in one phase.
struct TargetResult {
  std::size_t target = 0;  ///< index into the run's targets
  WorkerStats stats;
  std::optional<std::string> error;  ///< the target failed (open, engine, I/O); stats cover the time before
  std::optional<unsigned> cpu;       ///< the CPU its worker was kept on (none: the platform refused)
};

struct PhaseResult {
  PhaseTargets targets;
  std::vector<TargetResult> per_target;  ///< same order as `targets`
  CpuTime cpu;                           ///< getrusage(RUSAGE_SELF) over the measurement window
  std::int64_t window_ns = 0;            ///< planned measurement window (runtime)
  bool complete = true;                  ///< false when interrupted inside this phase
  std::optional<SteadyOutcome> steady;   ///< under RunConfig::steady: settled or not, and the last window

  /// Per-target stats merged (sum of bytes/IOs, merged latency); throughput is over the common window.
  WorkerStats aggregate() const;
  double aggregate_mbs() const;
  double aggregate_iops() const;
};

struct RunResult {
  std::vector<PhaseResult> phases;  ///< the phases that ran (fewer than planned when interrupted)
  std::size_t planned_phases = 0;   ///< the phases the run was configured with
  bool interrupted = false;
};

/// Live view of the running phase, sampled by the runner thread.
struct Snapshot {
  std::size_t phase = 0;  ///< 0-based
  std::size_t phase_count = 0;
  std::int64_t start_ns = 0;  ///< PhaseTiming of the running phase
  std::int64_t measure_ns = 0;
  std::int64_t end_ns = 0;
  struct Target {
    std::string label;
    std::uint64_t bytes = 0;  ///< completed since the phase started
    double mbs = 0;           ///< rate since the previous snapshot
  };
  std::vector<Target> targets;
};

using SnapshotFn = std::function<void(const Snapshot&)>;

/// Run all phases. A target whose engine or I/O fails gets its error in its TargetResult; throws LoadError
/// only for an unknown engine name.
RunResult run_load(const std::vector<RunTarget>& targets, const RunConfig& cfg, std::stop_token stop,
                   const Clock& clock = {}, const SnapshotFn& on_snapshot = {});

}  // namespace usbsat::load
