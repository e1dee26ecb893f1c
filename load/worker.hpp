#pragma once
/// The per-target submit/reap loop. All accounting happens here, around the engine (fio td_io_queue, G11):
/// issue time stamps, counters, busy roll-back, EAGAIN/EBUSY → reap and retry, and errors attached to the
/// target. The worker owns its statistics; nobody else writes them (G12).
#include <atomic>
#include <cstdint>
#include <span>
#include <stop_token>
#include <string>

#include "load/clock.hpp"
#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/stats.hpp"

namespace usbsat::load {

/// Absolute times (Clock nanoseconds) of one phase, shared by all its workers so they measure one common
/// window: I/O starts at `start_ns`, completions in [measure_ns, end_ns) are counted, issuing stops at
/// end_ns.
struct PhaseTiming {
  std::int64_t start_ns = 0;
  std::int64_t measure_ns = 0;
  std::int64_t end_ns = 0;
};

/// Totals the worker publishes for live progress (single writer, relaxed; readers only sample them).
struct LiveCounters {
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> ios{0};
};

struct WorkerSetup {
  JobSpec job;
  Region region;
  std::uint64_t seed = 1;  ///< offset/rw-mix stream of this worker
};

/// What a worker returns: its statistics and, when the target failed, the first error.
struct WorkerOutcome {
  WorkerStats stats;
  int error = 0;              ///< errno of the first failure, 0 = none
  std::string error_message;  ///< one sentence, empty = none
};

/// How many completions a worker waits for when `in_device` requests are at the device: a quarter of them
/// (at least 1; fio's iodepth_batch_complete_min, which fio leaves at 1). Waiting for one at a deep queue
/// makes the completing CPU (the device's softirq, the loop driver's worker) wake the worker for every
/// completion or two; waiting for a quarter wakes it once per batch while three quarters of the queue stay
/// at the device, so the device never runs dry while the worker refills.
inline constexpr unsigned kReapBatchDivisor = 4;
unsigned reap_batch(unsigned in_device);

/// Run one phase on one target until `timing.end_ns`, a stop request, or the first I/O error; then drain
/// what is in flight. `buffers` holds queue_depth × block_size bytes, slot i uses the i-th block.
WorkerOutcome run_worker(Engine& engine, std::span<std::byte> buffers, const WorkerSetup& setup,
                         const PhaseTiming& timing, const Clock& clock, std::stop_token stop,
                         LiveCounters* live);

}  // namespace usbsat::load
