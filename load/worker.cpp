#include "load/worker.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "load/cpu_time.hpp"
#include "load/offsets.hpp"

namespace usbsat::load {
namespace {

constexpr std::int64_t kDrainLimitNs = 10'000'000'000;  // give up on in-flight I/O after 10 s
constexpr std::chrono::milliseconds kReapTimeout{100};  // how often a waiting worker sees a stop

struct Slot {
  std::int64_t issued_ns = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  IoDir dir = IoDir::Read;
};

}  // namespace

unsigned reap_batch(unsigned in_device) {
  return in_device >= kReapBatchDivisor ? in_device / kReapBatchDivisor : 1u;
}

namespace {

/// One worker's run, in named steps around the engine: fill() the queue, submit() it, reap() and account().
class WorkerLoop {
 public:
  WorkerLoop(Engine& engine, std::span<std::byte> buffers, const WorkerSetup& setup,
             const PhaseTiming& timing, const Clock& clock, LiveCounters* live)
      : engine_(engine),
        buffers_(buffers),
        job_(setup.job),
        timing_(timing),
        clock_(clock),
        live_(live),
        depth_(engine.capabilities().synchronous ? 1u : job_.queue_depth),
        offsets_(setup.region, job_.block_size, is_random(job_.pattern), setup.seed),
        mix_(setup.seed ^ 0x6d69785f72776d78ULL),
        slots_(job_.queue_depth),
        stop_ns_(timing.end_ns) {
    // One counter per second of the window, never more than the longest window a job may have (kMaxRuntime):
    // the series is bounded whatever the timing says.
    const std::int64_t window_ns = std::max<std::int64_t>(timing.end_ns - timing.measure_ns, 0);
    const auto seconds = static_cast<std::size_t>(
        std::min<std::int64_t>((window_ns + 999'999'999) / 1'000'000'000, kMaxRuntime.count()));
    out_.stats.bytes_per_second.assign(seconds, 0);
    free_slots_.reserve(job_.queue_depth);
    for (unsigned i = job_.queue_depth; i-- > 0;) free_slots_.push_back(i);
  }

  WorkerOutcome run(std::stop_token stop) {
    for (;;) {
      std::int64_t now = clock_.now_ns();
      if (!measuring_ && now >= timing_.measure_ns) {
        measuring_ = true;
        cpu_start_ = thread_cpu();
      }
      if (!stopping_ && (now >= timing_.end_ns || stop.stop_requested() || out_.error != 0)) {
        // Read the clock again: a stop requested at the window's end (the runner's phase stop) may be seen
        // here with `now` read before that end, and the window would come out short of the runtime.
        stop_at(clock_.now_ns());
      }
      if (!stopping_) fill(now);
      if (pending_ > 0) submit(now);
      if (inflight_ == 0) {
        if (stopping_) break;
        continue;
      }
      if (stopping_ && clock_.now_ns() - stop_ns_ > kDrainLimitNs) {
        fail(ETIMEDOUT, "in-flight I/O did not complete");
        break;
      }
      // Wait for a batch of what the device holds (none when all of it is still pending: submit only).
      const unsigned in_device = inflight_ - pending_;
      const auto done = engine_.reap(in_device > 0 ? reap_batch(in_device) : 0, kReapTimeout);
      if (!done.empty()) account(done);
    }
    WorkerStats& st = out_.stats;
    if (measuring_) {
      const CpuTime end = thread_cpu();
      st.cpu = {end.user_s - cpu_start_.user_s, end.sys_s - cpu_start_.sys_s};
    }
    st.measured_ns = stop_ns_ > timing_.measure_ns ? stop_ns_ - timing_.measure_ns : 0;
    // A phase that ended early (it settled, load/steady.hpp) has no seconds after its end.
    const auto seconds = static_cast<std::size_t>((st.measured_ns + 999'999'999) / 1'000'000'000);
    if (seconds < st.bytes_per_second.size()) st.bytes_per_second.resize(seconds);
    return std::move(out_);
  }

 private:
  void stop_at(std::int64_t now) {
    stopping_ = true;
    stop_ns_ = now < timing_.end_ns ? now : timing_.end_ns;
  }

  void fail(int err, const std::string& what) {
    if (out_.error == 0) {
      out_.error = err;
      out_.error_message = what + ": " + std::strerror(err);
    }
  }

  IoDir next_dir() {
    switch (job_.pattern) {
      case Pattern::Read:
      case Pattern::RandRead:
        return IoDir::Read;
      case Pattern::RandRW:
        return mix_.below(100) < job_.rwmix_read ? IoDir::Read : IoDir::Write;
      case Pattern::Write:
      case Pattern::RandWrite:
        break;
    }
    return IoDir::Write;
  }

  /// Queue requests into every free slot. One clock read stamps the whole batch: it is submitted together.
  void fill(std::int64_t now) {
    const std::uint32_t bs = job_.block_size;
    while (inflight_ < depth_ && !free_slots_.empty()) {
      const std::uint32_t s = free_slots_.back();
      Slot& slot = slots_[s];
      slot.offset = offsets_.next();
      slot.length = bs;
      slot.dir = next_dir();
      slot.issued_ns = now;
      const IoRequest req{slot.dir, s, bs, slot.offset, buffers_.data() + static_cast<std::size_t>(s) * bs};
      if (!engine_.queue(req)) break;  // busy: nothing was counted for it, the slot stays free
      free_slots_.pop_back();
      ++inflight_;
      ++pending_;
    }
  }

  /// Hand the queued requests to the engine. -EAGAIN/-EBUSY: the kernel is short of resources; the reap that
  /// follows frees some, then the next turn retries.
  void submit(std::int64_t now) {
    const int r = engine_.submit();
    if (r > 0) {
      pending_ -= std::min(static_cast<unsigned>(r), pending_);
    } else if (r < 0 && r != -EAGAIN && r != -EBUSY && r != -EINTR) {
      fail(-r, "submit failed");
      stop_at(now);
      // Nothing pending reached the device; those requests will never complete.
      inflight_ -= pending_;
      pending_ = 0;
    }
  }

  /// Free the completed slots and count what finished inside the window.
  void account(std::span<const Completion> done) {
    WorkerStats& st = out_.stats;
    const std::int64_t now = clock_.now_ns();
    const bool in_window = now >= timing_.measure_ns && now < stop_ns_;  // stop_ns_ == end_ns until stopping
    for (const Completion& c : done) {
      Slot& slot = slots_[c.slot];
      --inflight_;
      free_slots_.push_back(c.slot);
      if (c.result <= 0) {
        ++st.errors;
        if (c.result < 0)
          fail(-c.result, "I/O error at offset " + std::to_string(slot.offset));
        else
          fail(EIO, "unexpected end of target at offset " + std::to_string(slot.offset));
        continue;
      }
      const auto n = static_cast<std::uint64_t>(c.result);
      live_bytes_ += n;
      ++live_ios_;
      if (!in_window) continue;
      const auto lat = static_cast<std::uint64_t>(now - slot.issued_ns);
      st.lat_hist.record(lat);
      st.lat_ns.add(static_cast<double>(lat));
      ++st.ios;
      ++(slot.dir == IoDir::Read ? st.read_ios : st.write_ios);
      st.bytes += n;
      const auto sec = static_cast<std::size_t>((now - timing_.measure_ns) / 1'000'000'000);
      if (sec < st.bytes_per_second.size()) st.bytes_per_second[sec] += n;
    }
    if (live_) live_->publish(live_bytes_, live_ios_, now);
  }

  Engine& engine_;
  std::span<std::byte> buffers_;
  const JobSpec& job_;
  const PhaseTiming& timing_;
  const Clock& clock_;
  LiveCounters* live_;
  unsigned depth_;
  OffsetGenerator offsets_;
  Rng mix_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  WorkerOutcome out_;
  unsigned inflight_ = 0;  // queued to the engine and not yet reaped
  unsigned pending_ = 0;   // queued but not yet accepted by submit()
  bool stopping_ = false;
  std::int64_t stop_ns_;
  bool measuring_ = false;
  CpuTime cpu_start_{};
  std::uint64_t live_bytes_ = 0, live_ios_ = 0;
};

}  // namespace

WorkerOutcome run_worker(Engine& engine, std::span<std::byte> buffers, const WorkerSetup& setup,
                         const PhaseTiming& timing, const Clock& clock, std::stop_token stop,
                         LiveCounters* live) {
  return WorkerLoop(engine, buffers, setup, timing, clock, live).run(stop);
}

}  // namespace usbsat::load
