#include <doctest/doctest.h>

#include <cerrno>
#include <thread>
#include <vector>

#include "load/buffer.hpp"
#include "load/cpu_affinity.hpp"
#include "load/engine.hpp"
#include "load/runner.hpp"
#include "load/worker.hpp"

using namespace usbsat::load;

namespace {

// A fake clock: every read advances time by 1 µs, so a run is a deterministic function of the loop.
std::int64_t g_fake_ns = 0;
std::int64_t fake_now() {
  return g_fake_ns += 1000;
}

WorkerSetup setup_for(Pattern p, unsigned qd, std::uint32_t bs = 4096) {
  WorkerSetup s;
  s.job.pattern = p;
  s.job.queue_depth = qd;
  s.job.block_size = bs;
  s.region = {0, 1 << 20};
  s.seed = 5;
  return s;
}

/// Wraps the null engine and injects faults: busy queues, EAGAIN submits, a failing completion.
class FaultyEngine final : public Engine {
 public:
  FaultyEngine(unsigned depth, int fail_after, int busy_every, int eagain_every)
      : inner_(make_null_engine({-1, depth, {}, 0})),
        fail_after_(fail_after),
        busy_every_(busy_every),
        eagain_every_(eagain_every) {}
  Capabilities capabilities() const override { return inner_->capabilities(); }
  bool queue(const IoRequest& r) override {
    if (busy_every_ && ++queues_ % busy_every_ == 0) return false;
    return inner_->queue(r);
  }
  int submit() override {
    if (eagain_every_ && ++submits_ % eagain_every_ == 0) return -EAGAIN;
    return inner_->submit();
  }
  std::span<const Completion> reap(unsigned min, std::chrono::nanoseconds t) override {
    auto done = inner_->reap(min, t);
    out_.assign(done.begin(), done.end());
    for (auto& c : out_)
      if (fail_after_ >= 0 && ++completed_ > fail_after_) c.result = -EIO;
    return out_;
  }
  int queues_ = 0, submits_ = 0, completed_ = 0;

 private:
  std::unique_ptr<Engine> inner_;
  int fail_after_, busy_every_, eagain_every_;
  std::vector<Completion> out_;
};

/// Two phases on target 0, the null engine, no ramp: the set-up the runner's timing and stop cases share.
RunConfig null_two_phases(std::chrono::milliseconds runtime) {
  RunConfig cfg;
  cfg.job.runtime = runtime;
  cfg.job.ramp = std::chrono::milliseconds(0);
  cfg.engine = "null";
  cfg.phases = {{0}, {0}};
  return cfg;
}

/// Run `cfg` on `targets`, asking it to stop after `after`; the run must end within 5 s of its start.
RunResult run_stopped_after(const RunConfig& cfg, const std::vector<RunTarget>& targets,
                            std::chrono::milliseconds after) {
  std::stop_source stop;
  std::jthread stopper([&] {
    std::this_thread::sleep_for(after);
    stop.request_stop();
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_load(targets, cfg, stop.get_token());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  return r;
}

}  // namespace

TEST_CASE("worker with the null engine counts every completion inside the window only") {
  g_fake_ns = 0;
  const Clock clock{&fake_now};
  const auto s = setup_for(Pattern::RandRead, 8);
  auto buf = alloc_io_buffers(8 * 4096, 4096, 1);
  auto engine = make_null_engine({-1, 8, {buf.get(), 8 * 4096}, 4096});
  LiveCounters live;
  const PhaseTiming t{0, 1'000'000, 3'000'000};  // 1 ms ramp, 2 ms window (fake time)
  const auto out = run_worker(*engine, {buf.get(), 8 * 4096}, s, t, clock, {}, &live);
  CHECK(out.error == 0);
  CHECK(out.stats.ios > 0);
  CHECK(out.stats.bytes == out.stats.ios * 4096);
  CHECK(out.stats.read_ios == out.stats.ios);
  CHECK(out.stats.lat_hist.count() == out.stats.ios);
  CHECK(out.stats.lat_ns.count() == out.stats.ios);
  CHECK(out.stats.measured_ns == 2'000'000);
  CHECK(live.bytes.load() > out.stats.bytes);  // the ramp's I/O is live but not measured
  CHECK(out.stats.bytes_per_second.size() == 1);
  CHECK(out.stats.bytes_per_second[0] == out.stats.bytes);

  // Same inputs, same fake clock → same result (determinism of the loop).
  g_fake_ns = 0;
  auto engine2 = make_null_engine({-1, 8, {buf.get(), 8 * 4096}, 4096});
  const auto again = run_worker(*engine2, {buf.get(), 8 * 4096}, s, t, clock, {}, nullptr);
  CHECK(again.stats.ios == out.stats.ios);
  CHECK(again.stats.lat_hist == out.stats.lat_hist);
}

TEST_CASE("worker rolls back busy queues and retries after EAGAIN") {
  g_fake_ns = 0;
  const Clock clock{&fake_now};
  const auto s = setup_for(Pattern::RandRW, 4);
  auto buf = alloc_io_buffers(4 * 4096, 4096, 1);
  FaultyEngine engine(4, -1, 3, 2);
  const PhaseTiming t{0, 0, 2'000'000};
  const auto out = run_worker(engine, {buf.get(), 4 * 4096}, s, t, clock, {}, nullptr);
  CHECK(out.error == 0);
  CHECK(out.stats.ios > 100);
  CHECK(out.stats.read_ios + out.stats.write_ios == out.stats.ios);
  CHECK(out.stats.read_ios > 0);
  CHECK(out.stats.write_ios > 0);
  CHECK(engine.submits_ > 2);
}

TEST_CASE("worker stops on the first I/O error and attaches it") {
  g_fake_ns = 0;
  const Clock clock{&fake_now};
  const auto s = setup_for(Pattern::Read, 2);
  auto buf = alloc_io_buffers(2 * 4096, 4096, 1);
  FaultyEngine engine(2, 50, 0, 0);
  const PhaseTiming t{0, 0, 1'000'000'000};
  const auto out = run_worker(engine, {buf.get(), 2 * 4096}, s, t, clock, {}, nullptr);
  CHECK(out.error == EIO);
  CHECK(out.error_message.find("I/O error at offset") != std::string::npos);
  CHECK(out.stats.errors >= 1);
  CHECK(out.stats.ios == 50);
  CHECK(out.stats.measured_ns < 1'000'000'000);
}

TEST_CASE("worker honours a stop request") {
  g_fake_ns = 0;
  const Clock clock{&fake_now};
  const auto s = setup_for(Pattern::Write, 1);
  auto buf = alloc_io_buffers(4096, 4096, 1);
  auto engine = make_null_engine({-1, 1, {}, 0});
  std::stop_source stop;
  stop.request_stop();
  const auto out =
      run_worker(*engine, {buf.get(), 4096}, s, {0, 0, 1'000'000'000'000}, clock, stop.get_token(), nullptr);
  CHECK(out.stats.ios == 0);
  CHECK(out.error == 0);
}

TEST_CASE("runner runs phases with overlapping workers and reports snapshots") {
  RunConfig cfg;
  cfg.job.pattern = Pattern::RandRead;
  cfg.job.block_size = 4096;
  cfg.job.queue_depth = 4;
  cfg.job.runtime = std::chrono::milliseconds(200);
  cfg.job.ramp = std::chrono::milliseconds(50);
  cfg.engine = "null";
  cfg.phases = {{0}, {1}, {0, 1}};
  cfg.snapshot_interval = std::chrono::milliseconds(20);
  const std::vector<RunTarget> targets = {{"a", -1, 1 << 20, 512}, {"b", -1, 1 << 20, 512}};
  int snapshots = 0;
  const auto r = run_load(targets, cfg, {}, {}, [&](const Snapshot& s) {
    ++snapshots;
    CHECK(s.phase_count == 3);
  });
  CHECK_FALSE(r.interrupted);
  REQUIRE(r.phases.size() == 3);
  CHECK(snapshots > 5);
  CHECK(r.phases[2].per_target.size() == 2);
  for (const auto& p : r.phases)
    for (const auto& t : p.per_target) {
      CHECK_FALSE(t.error);
      CHECK(t.stats.ios > 0);
      CHECK(t.stats.measured_ns == 200'000'000);
    }
  CHECK(r.phases[2].per_target[1].target == 1);
  CHECK(r.phases[2].aggregate().ios ==
        r.phases[2].per_target[0].stats.ios + r.phases[2].per_target[1].stats.ios);
}

TEST_CASE("runner: a stop request ends the run promptly with partial results") {
  RunConfig cfg = null_two_phases(std::chrono::milliseconds(60000));
  cfg.settle = std::chrono::milliseconds(0);  // the stop lands in the I/O, not in the wait before it
  const auto r = run_stopped_after(cfg, {{"a", -1, 1 << 30, 512}}, std::chrono::milliseconds(200));
  CHECK(r.interrupted);
  REQUIRE(r.phases.size() == 1);
  CHECK_FALSE(r.phases[0].complete);
  CHECK(r.phases[0].per_target[0].stats.ios > 0);
  CHECK(r.phases[0].per_target[0].stats.measured_ns > 100'000'000);
}

TEST_CASE("runner: the workers of a phase idle the settle time before its clock starts") {
  RunConfig cfg = null_two_phases(std::chrono::milliseconds(40));
  cfg.snapshot_interval = std::chrono::milliseconds(10);
  const std::vector<RunTarget> targets = {{"a", -1, 1 << 20, 512}};
  for (const auto settle : {std::chrono::milliseconds(0), std::chrono::milliseconds(300)}) {
    CAPTURE(settle.count());
    cfg.settle = settle;
    std::vector<std::int64_t> starts;  // each phase's clock start, in the order the phases ran
    const std::int64_t before = Clock::steady_now_ns();
    const std::int64_t runtime_ns = std::chrono::nanoseconds(cfg.job.runtime).count();
    const auto r = run_load(targets, cfg, {}, {}, [&](const Snapshot& s) {
      if (starts.size() <= s.phase) starts.push_back(s.start_ns);
    });
    REQUIRE(r.phases.size() == 2);
    REQUIRE(starts.size() == 2);
    for (std::size_t p = 0; p < 2; ++p) {
      // From the run's start (or the previous phase's end) to this phase's clock start: set-up, then settle.
      const std::int64_t from = p == 0 ? before : starts[p - 1] + runtime_ns;
      const std::int64_t waited = starts[p] - from;
      CHECK(waited >= std::chrono::nanoseconds(settle).count());
      if (settle.count() == 0) CHECK(waited < 250'000'000);
      CHECK(r.phases[p].per_target[0].stats.ios > 0);
    }
  }
}

TEST_CASE("runner: a stop while the workers wait to start ends the run at once, with no I/O") {
  RunConfig cfg = null_two_phases(std::chrono::milliseconds(1000));
  cfg.settle = std::chrono::milliseconds(60000);
  const auto r = run_stopped_after(cfg, {{"a", -1, 1 << 20, 512}}, std::chrono::milliseconds(100));
  CHECK(r.interrupted);
  REQUIRE(r.phases.size() == 1);
  CHECK_FALSE(r.phases[0].complete);
  CHECK(r.phases[0].per_target[0].stats.ios == 0);
}

TEST_CASE("runner: a target with an impossible region gets an error, the other runs") {
  RunConfig cfg;
  cfg.job.block_size = 1 << 20;
  cfg.job.runtime = std::chrono::milliseconds(50);
  cfg.job.ramp = std::chrono::milliseconds(0);
  cfg.engine = "null";
  cfg.phases = {{0, 1}};
  const std::vector<RunTarget> targets = {{"small", -1, 4096, 512}, {"big", -1, 1 << 30, 512}};
  const auto r = run_load(targets, cfg, {});
  REQUIRE(r.phases.size() == 1);
  CHECK(r.phases[0].per_target[0].error);
  CHECK_FALSE(r.phases[0].per_target[1].error);
  CHECK(r.phases[0].per_target[1].stats.ios > 0);
}

TEST_CASE("engine table and choice") {
  CHECK(find_engine("uring"));
  CHECK(find_engine("sync"));
  CHECK(find_engine("null"));
  CHECK_FALSE(find_engine("libaio"));
  CHECK(choose_engine("null").name == "null");
  CHECK_THROWS(choose_engine("nope"));
  // The table says which engines keep one I/O in flight before a run; their engines must agree.
  for (const char* name : {"sync", "null"}) {
    CAPTURE(name);
    const auto* row = find_engine(name);
    REQUIRE(row);
    CHECK(row->make({-1, 4, {}, 0})->capabilities().synchronous == row->synchronous);
    CHECK(choose_engine(name).synchronous == row->synchronous);
  }
  CHECK(find_engine("sync")->synchronous);
  CHECK_FALSE(find_engine("null")->synchronous);
}

TEST_CASE("worker waits for a quarter of what the device holds, at least one") {
  CHECK(reap_batch(1) == 1);
  CHECK(reap_batch(3) == 1);
  CHECK(reap_batch(4) == 1);
  CHECK(reap_batch(8) == 2);
  CHECK(reap_batch(31) == 7);
  CHECK(reap_batch(32) == 8);
}

TEST_CASE("workers take the allowed CPUs in turn") {
  CHECK_FALSE(worker_cpu({}, 0));
  const std::vector<unsigned> cpus = {2, 5, 7};
  CHECK(worker_cpu(cpus, 0) == 2u);
  CHECK(worker_cpu(cpus, 1) == 5u);
  CHECK(worker_cpu(cpus, 2) == 7u);
  CHECK(worker_cpu(cpus, 3) == 2u);
}

TEST_CASE("runner keeps each worker of a phase on one CPU, the allowed CPUs in turn, when asked") {
  const std::vector<unsigned> cpus = allowed_cpus();
#ifndef _WIN32
  REQUIRE_FALSE(cpus.empty());  // Linux always says
#endif
  // Pinning holds: the pinned thread may run on that CPU only.
  std::jthread([&] {
    if (cpus.empty()) return;
    if (!pin_current_thread(cpus.back())) {
#ifndef _WIN32
      FAIL("sched_setaffinity refused an allowed CPU");
#endif
      return;
    }
    CHECK(allowed_cpus() == std::vector<unsigned>{cpus.back()});
  }).join();

  RunConfig cfg;
  // Long enough for a worker kept on a CPU that the rest of the machine keeps busy to get a turn inside the
  // window: with 20 ms a kept worker did no I/O at all once, under TSan while CI compiled the other legs.
  cfg.job.runtime = std::chrono::milliseconds(200);
  cfg.job.ramp = std::chrono::milliseconds(0);
  cfg.engine = "null";
  cfg.phases = {{0, 1, 2}};
  const std::vector<RunTarget> targets = {
      {"a", -1, 1 << 20, 512}, {"b", -1, 1 << 20, 512}, {"c", -1, 1 << 20, 512}};
  // By default the workers are left to the scheduler: none is kept anywhere.
  const auto free = run_load(targets, cfg, {});
  REQUIRE(free.phases.size() == 1);
  for (const auto& t : free.phases[0].per_target) {
    CHECK(t.stats.ios > 0);
    CHECK_FALSE(t.cpu);
  }
  cfg.pin_workers = true;
  const auto r = run_load(targets, cfg, {});
  REQUIRE(r.phases.size() == 1);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    CAPTURE(i);
    const auto& t = r.phases[0].per_target[i];
    CHECK(t.stats.ios > 0);
#ifndef _WIN32
    REQUIRE(t.cpu);
#endif
    if (t.cpu) CHECK(*t.cpu == *worker_cpu(cpus, i));
  }
}
