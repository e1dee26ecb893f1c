#include "load/runner.hpp"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

#include "load/buffer.hpp"
#include "load/cpu_affinity.hpp"
#include "load/cpu_time.hpp"
#include "load/engine.hpp"
#include "load/errors.hpp"
#include "load/worker.hpp"

namespace usbsat::load {
namespace {

/// Sleep until `deadline_ns` of `clock` or a stop request, whichever comes first.
void sleep_until(const Clock& clock, std::int64_t deadline_ns, std::stop_token stop) {
  const auto left = deadline_ns - clock.now_ns();
  if (left <= 0) return;
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock lock(m);
  cv.wait_for(lock, stop, std::chrono::nanoseconds(left), [] { return false; });
}

/// A count-down latch on a mutex and a condition variable. Not std::latch: GCC 12's atomic wait, which
/// std::latch uses, can deadlock where there is no futex (mingw-w64: usbsat.exe hung at random in the start
/// of a phase, like botan#3202 with std::counting_semaphore).
class Latch {
 public:
  explicit Latch(std::ptrdiff_t count) : count_(count) {}
  void count_down() {
    const std::lock_guard lock(m_);
    if (--count_ == 0) cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [this] { return count_ <= 0; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::ptrdiff_t count_;
};

/// What the workers of one phase share with the thread that runs the phase.
struct PhaseSync {
  explicit PhaseSync(std::size_t n)
      : live(std::make_unique<LiveCounters[]>(n)), ready(static_cast<std::ptrdiff_t>(n)) {}
  std::unique_ptr<LiveCounters[]> live;  ///< per worker, read by the progress snapshots
  std::atomic<std::size_t> finished{0};  ///< workers done
  PhaseTiming timing;                    ///< set after `ready`, before `go`
  Latch ready;                           ///< every worker has its engine and buffers
  Latch go{1};                           ///< the clock has started
  std::stop_source stop;                 ///< ends the phase (window over, or the run's stop)
};

/// A worker's engine, buffers and setup, made before the phase starts; `error` when it cannot run.
struct PreparedWorker {
  AlignedBytes buffers;
  std::size_t buffer_bytes = 0;
  std::unique_ptr<Engine> engine;
  WorkerSetup setup;
  std::optional<std::string> error;
};

PreparedWorker prepare_worker(const RunTarget& t, std::size_t target, const JobSpec& job,
                              const EngineFactory& factory, std::stop_token stop) {
  PreparedWorker w;
  try {
    const auto region = resolve_region(job, t.size_bytes, t.logical_block);
    if (!region.region) throw TargetError(region.error, EINVAL);
    w.setup = {job, *region.region, job.seed * 0x9e3779b97f4a7c15ULL + target + 1};
    w.buffer_bytes = static_cast<std::size_t>(job.queue_depth) * job.block_size;
    // Filling big buffers takes a while: a stop request ends it, and this worker then runs nothing.
    w.buffers = alloc_io_buffers(w.buffer_bytes, 4096, w.setup.seed, stop);
    if (w.buffers)
      w.engine = factory.make({t.fd, job.queue_depth, {w.buffers.get(), w.buffer_bytes}, job.block_size});
  } catch (const std::bad_alloc&) {
    w.error = "cannot allocate " + format_binary_size(std::uint64_t{job.queue_depth} * job.block_size) +
              " of I/O buffers";
  } catch (const std::exception& e) {
    w.error = e.what();
  }
  return w;
}

/// One worker thread: prepare, wait for the common start, run, record in `r`.
void phase_worker(const RunTarget& t, std::size_t target, const JobSpec& job, const EngineFactory& factory,
                  const Clock& clock, PhaseSync& sync, LiveCounters* live, TargetResult& r) {
  r.target = target;
  auto w = prepare_worker(t, target, job, factory, sync.stop.get_token());
  if (w.error) r.error = std::move(w.error);
  sync.ready.count_down();
  sync.go.wait();
  if (w.engine) {
    auto outcome = run_worker(*w.engine, {w.buffers.get(), w.buffer_bytes}, w.setup, sync.timing, clock,
                              sync.stop.get_token(), live);
    r.stats = std::move(outcome.stats);
    if (outcome.error) r.error = std::move(outcome.error_message);
  }
  sync.finished.fetch_add(1, std::memory_order_release);
}

/// What supervising a phase gave: the process CPU time over the measurement window (zero when it never
/// started) and, under the settle rule, how the phase ended.
struct Supervised {
  CpuTime cpu;
  std::optional<SteadyOutcome> steady;
};

/// One live-progress snapshot of the running phase: each target's bytes and its rate since the last one.
Snapshot take_snapshot(const std::vector<RunTarget>& targets, const RunConfig& cfg, std::size_t phase_index,
                       const PhaseSync& sync, std::vector<std::uint64_t>& last_bytes, double dt) {
  const PhaseTargets& members = cfg.phases[phase_index];
  const PhaseTiming& timing = sync.timing;
  Snapshot s{phase_index, cfg.phases.size(), timing.start_ns, timing.measure_ns, timing.end_ns, {}};
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto b = sync.live[i].bytes.load(std::memory_order_relaxed);
    s.targets.push_back(
        {targets[members[i]].label, b, dt > 0 ? static_cast<double>(b - last_bytes[i]) / 1e6 / dt : 0.0});
    last_bytes[i] = b;
  }
  return s;
}

/// Sample progress every snapshot interval, and under the settle rule every tick, until the window ends, the
/// rate settles, the run stops or every worker finished.
Supervised supervise(const std::vector<RunTarget>& targets, const RunConfig& cfg, std::size_t phase_index,
                     std::stop_token stop, const Clock& clock, const SnapshotFn& on_snapshot,
                     PhaseSync& sync) {
  const std::size_t n = cfg.phases[phase_index].size();
  const PhaseTiming& timing = sync.timing;
  const auto interval = std::chrono::duration_cast<std::chrono::nanoseconds>(cfg.snapshot_interval).count();
  std::optional<SteadySampler> sampler;
  std::int64_t tick = 0, next_tick = std::numeric_limits<std::int64_t>::max();
  if (cfg.steady) {
    SteadyRule rule = *cfg.steady;
    rule.ramp = cfg.job.ramp;
    sampler.emplace(rule, n, timing.start_ns);
    tick = std::max<std::int64_t>(std::chrono::nanoseconds(rule.tick).count(), 1'000'000);
    next_tick = timing.start_ns + tick;
  }
  std::vector<std::uint64_t> last_bytes(n, 0);
  std::vector<LiveMark> marks(n);
  std::int64_t last_ns = timing.start_ns;
  bool cpu_started = false, settled = false;
  Supervised out;
  CpuTime cpu0{};
  for (;;) {
    const std::int64_t now = clock.now_ns();
    if (!cpu_started && now >= timing.measure_ns) {
      cpu_started = true;
      cpu0 = process_cpu();
    }
    if (sampler && now >= next_tick) {
      for (std::size_t i = 0; i < n; ++i) marks[i] = sync.live[i].mark();
      settled = sampler->add(now, marks);
      next_tick += tick * ((now - next_tick) / tick + 1);  // a late wake skips ticks, never bunches them
    }
    if (settled || now >= timing.end_ns || stop.stop_requested() ||
        sync.finished.load(std::memory_order_acquire) == n)
      break;
    if (on_snapshot && now - last_ns >= interval / 2) {  // not at t=0: a rate needs an interval
      on_snapshot(take_snapshot(targets, cfg, phase_index, sync, last_bytes,
                                static_cast<double>(now - last_ns) / 1e9));
      last_ns = now;
    }
    std::int64_t next = std::min(now + interval, next_tick);
    if (!cpu_started) next = std::min(next, timing.measure_ns);
    sleep_until(clock, std::min(next, timing.end_ns), stop);
  }
  if (sampler) out.steady = sampler->outcome(clock.now_ns());
  if (!cpu_started) return out;
  const CpuTime cpu1 = process_cpu();
  out.cpu = {cpu1.user_s - cpu0.user_s, cpu1.sys_s - cpu0.sys_s};
  return out;
}

/// One phase: start the workers behind a latch, sample progress, join, collect.
PhaseResult run_phase(const std::vector<RunTarget>& targets, const RunConfig& cfg, std::size_t phase_index,
                      std::stop_token stop, const Clock& clock, const SnapshotFn& on_snapshot) {
  const PhaseTargets& members = cfg.phases[phase_index];
  const std::size_t n = members.size();
  const JobSpec& job = cfg.job;
  const EngineFactory* factory = find_engine(cfg.engine);
  if (!factory) throw LoadError("unknown engine '" + cfg.engine + "'");

  PhaseResult result;
  result.targets = members;
  result.per_target.resize(n);
  result.window_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(job.runtime).count();
  PhaseSync sync(n);
  std::stop_callback forward(stop, [&sync] { sync.stop.request_stop(); });

  // With pin_workers each worker stays on one CPU, the allowed CPUs in turn (`taskset` narrows them): on an
  // idle machine a worker at queue depth 1 then runs at a steady rate (left to the scheduler its 4k random
  // reads on a loop device swung 25-45k/s from run to run, kept on one CPU 35-40k). It is not the default:
  // with a compiler running beside them, two kept workers split one 40 MB/s bus 24/16 MB/s in three runs of
  // three where workers left to the scheduler split it 20.5/19.5 (issue 25, tests/bench/README.md).
  const std::vector<unsigned> cpus = cfg.pin_workers ? allowed_cpus() : std::vector<unsigned>{};
  std::vector<std::jthread> threads;
  threads.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      if (const auto cpu = worker_cpu(cpus, i); cpu && pin_current_thread(*cpu))
        result.per_target[i].cpu = cpu;
      phase_worker(targets[members[i]], members[i], job, *factory, clock, sync, &sync.live[i],
                   result.per_target[i]);
    });

  // Start together: every worker has its engine and buffers, then idles `settle`, before the clock starts.
  sync.ready.wait();
  sleep_until(clock, clock.now_ns() + std::chrono::nanoseconds(cfg.settle).count(), stop);
  sync.timing.start_ns = clock.now_ns();
  sync.timing.measure_ns =
      sync.timing.start_ns + std::chrono::duration_cast<std::chrono::nanoseconds>(job.ramp).count();
  sync.timing.end_ns = sync.timing.measure_ns + result.window_ns;
  sync.go.count_down();

  auto supervised = supervise(targets, cfg, phase_index, stop, clock, on_snapshot, sync);
  result.cpu = supervised.cpu;
  result.steady = std::move(supervised.steady);
  result.complete = !stop.stop_requested();
  sync.stop.request_stop();
  for (auto& t : threads) t.join();
  return result;
}

}  // namespace

WorkerStats PhaseResult::aggregate() const {
  WorkerStats all;
  for (const auto& t : per_target) all.merge(t.stats);
  return all;
}

double PhaseResult::aggregate_mbs() const {
  double sum = 0;
  for (const auto& t : per_target) sum += t.stats.mbs();
  return sum;
}

double PhaseResult::aggregate_iops() const {
  double sum = 0;
  for (const auto& t : per_target) sum += t.stats.iops();
  return sum;
}

RunResult run_load(const std::vector<RunTarget>& targets, const RunConfig& cfg, std::stop_token stop,
                   const Clock& clock, const SnapshotFn& on_snapshot) {
  RunResult out;
  out.planned_phases = cfg.phases.size();
  for (std::size_t p = 0; p < cfg.phases.size(); ++p) {
    if (stop.stop_requested()) {
      out.interrupted = true;
      break;
    }
    out.phases.push_back(run_phase(targets, cfg, p, stop, clock, on_snapshot));
    if (!out.phases.back().complete) {
      out.interrupted = true;
      break;
    }
  }
  return out;
}

}  // namespace usbsat::load
