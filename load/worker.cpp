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

WorkerOutcome run_worker(Engine& engine, std::span<std::byte> buffers, const WorkerSetup& setup,
                         const PhaseTiming& timing, const Clock& clock, std::stop_token stop,
                         LiveCounters* live) {
  WorkerOutcome out;
  WorkerStats& st = out.stats;
  const JobSpec& job = setup.job;
  const auto caps = engine.capabilities();
  const unsigned depth = caps.synchronous ? 1u : job.queue_depth;
  const std::uint32_t bs = job.block_size;

  OffsetGenerator offsets(setup.region, bs, setup.align, is_random(job.pattern), setup.seed);
  Rng mix(setup.seed ^ 0x6d69785f72776d78ULL);
  // One counter per second of the window, never more than the longest window a job may have (kMaxRuntime):
  // the series is bounded whatever the timing says.
  const std::int64_t window_ns = std::max<std::int64_t>(timing.end_ns - timing.measure_ns, 0);
  const auto seconds = static_cast<std::size_t>(
      std::min<std::int64_t>((window_ns + 999'999'999) / 1'000'000'000, kMaxRuntime.count()));
  st.bytes_per_second.assign(seconds, 0);

  std::vector<Slot> slots(job.queue_depth);
  std::vector<std::uint32_t> free_slots;
  free_slots.reserve(job.queue_depth);
  for (unsigned i = job.queue_depth; i-- > 0;) free_slots.push_back(i);

  unsigned inflight = 0;  // queued to the engine and not yet reaped
  unsigned pending = 0;   // queued but not yet accepted by submit()
  bool stopping = false;
  std::int64_t stop_ns = timing.end_ns;
  bool measuring = false;
  CpuTime cpu_start{};
  std::uint64_t live_bytes = 0, live_ios = 0;

  auto fail = [&](int err, const std::string& what) {
    if (out.error == 0) {
      out.error = err;
      out.error_message = what + ": " + std::strerror(err);
    }
  };

  for (;;) {
    std::int64_t now = clock.now_ns();
    if (!measuring && now >= timing.measure_ns) {
      measuring = true;
      cpu_start = thread_cpu();
    }
    if (!stopping && (now >= timing.end_ns || stop.stop_requested() || out.error != 0)) {
      stopping = true;
      // Read the clock again: a stop requested at the window's end (the runner's phase stop) may be seen here
      // with `now` read before that end, and the window would come out short of the runtime.
      now = clock.now_ns();
      stop_ns = now < timing.end_ns ? now : timing.end_ns;
    }
    if (!stopping) {
      // Fill the queue. One clock read stamps the whole batch: the batch is submitted together.
      while (inflight < depth && !free_slots.empty()) {
        const std::uint32_t s = free_slots.back();
        Slot& slot = slots[s];
        slot.offset = offsets.next();
        slot.length = bs;
        slot.dir = job.pattern == Pattern::Read || job.pattern == Pattern::RandRead ? IoDir::Read
                   : job.pattern == Pattern::RandRW
                       ? (mix.below(100) < job.rwmix_read ? IoDir::Read : IoDir::Write)
                       : IoDir::Write;
        slot.issued_ns = now;
        const IoRequest req{slot.dir, s, bs, slot.offset, buffers.data() + static_cast<std::size_t>(s) * bs};
        if (!engine.queue(req)) break;  // busy: nothing was counted for it, the slot stays free
        free_slots.pop_back();
        ++inflight;
        ++pending;
      }
    }
    if (pending > 0) {
      const int r = engine.submit();
      if (r > 0) {
        pending -= static_cast<unsigned>(r) < pending ? static_cast<unsigned>(r) : pending;
      } else if (r < 0 && r != -EAGAIN && r != -EBUSY && r != -EINTR) {
        fail(-r, "submit failed");
        stopping = true;
        stop_ns = now < timing.end_ns ? now : timing.end_ns;
        // Nothing pending reached the device; those requests will never complete.
        inflight -= pending;
        pending = 0;
      }
      // -EAGAIN/-EBUSY: the kernel is short of resources; reap below frees some, then retry.
    }
    if (inflight == 0) {
      if (stopping) break;
      continue;
    }
    if (stopping && clock.now_ns() - stop_ns > kDrainLimitNs) {
      fail(ETIMEDOUT, "in-flight I/O did not complete");
      break;
    }
    const auto done = engine.reap(inflight > pending ? 1 : 0, kReapTimeout);
    if (done.empty()) continue;
    now = clock.now_ns();
    const bool in_window = now >= timing.measure_ns && now < stop_ns;  // stop_ns == end_ns until stopping
    for (const Completion& c : done) {
      Slot& slot = slots[c.slot];
      --inflight;
      free_slots.push_back(c.slot);
      if (c.result < 0) {
        ++st.errors;
        fail(-c.result, "I/O error at offset " + std::to_string(slot.offset));
        continue;
      }
      if (c.result == 0) {
        ++st.errors;
        fail(EIO, "unexpected end of target at offset " + std::to_string(slot.offset));
        continue;
      }
      const auto n = static_cast<std::uint64_t>(c.result);
      live_bytes += n;
      ++live_ios;
      if (!in_window) continue;
      const auto lat = static_cast<std::uint64_t>(now - slot.issued_ns);
      st.lat_hist.record(lat);
      st.lat_ns.add(static_cast<double>(lat));
      ++st.ios;
      ++(slot.dir == IoDir::Read ? st.read_ios : st.write_ios);
      st.bytes += n;
      const auto sec = static_cast<std::size_t>((now - timing.measure_ns) / 1'000'000'000);
      if (sec < st.bytes_per_second.size()) st.bytes_per_second[sec] += n;
    }
    if (live) {
      live->bytes.store(live_bytes, std::memory_order_relaxed);
      live->ios.store(live_ios, std::memory_order_relaxed);
    }
  }
  if (measuring) {
    const CpuTime end = thread_cpu();
    st.cpu = {end.user_s - cpu_start.user_s, end.sys_s - cpu_start.sys_s};
  }
  st.measured_ns = stop_ns > timing.measure_ns ? stop_ns - timing.measure_ns : 0;
  return out;
}

}  // namespace usbsat::load
