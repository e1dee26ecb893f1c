#pragma once
/// The per-target submit/reap loop. All accounting happens here, around the engine (fio td_io_queue, G11):
/// issue time stamps, counters, busy roll-back, EAGAIN/EBUSY → reap and retry, and errors attached to the
/// target. The worker owns its statistics; nobody else writes them (G12).
#include <atomic>
#include <cstdint>
#include <mutex>
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

/// Bytes completed by a moment: what the settle rule's samples are made of (load/steady_sampler.hpp).
struct LiveMark {
  std::uint64_t bytes = 0;
  std::int64_t ns = 0;  ///< Clock time the worker counted `bytes` at (0: nothing counted yet)
};

/// Totals the worker publishes for live progress (single writer, relaxed; readers only sample them), and
/// the mark: the bytes with the time the worker counted them, read together. A worker counts completions a
/// batch at a time (reap_batch), so bytes read at an arbitrary tick lag by up to a batch (1 MiB at QD32 and
/// 128 KiB, 4% of what a drive at 100 MB/s completes in 250 ms); a rate between two marks has no such error.
class LiveCounters {
 public:
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> ios{0};

  void publish(std::uint64_t total_bytes, std::uint64_t total_ios, std::int64_t now_ns) {
    bytes.store(total_bytes, std::memory_order_relaxed);
    ios.store(total_ios, std::memory_order_relaxed);
    const std::lock_guard lock(m_);
    mark_ = {total_bytes, now_ns};
  }
  LiveMark mark() const {
    const std::lock_guard lock(m_);
    return mark_;
  }

 private:
  mutable std::mutex m_;
  LiveMark mark_;
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
