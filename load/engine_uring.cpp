// The io_uring engine (liburing): one ring per worker, the target fd registered as fixed file 0 and the
// worker's buffers registered as fixed buffers when the kernel allows it (saves a per-I/O fd lookup and page
// pinning, as fio's registerfiles/fixedbufs do). Rings are set up single-issuer with deferred task work when
// the kernel supports it (6.1+; fio 3.33's choice too): completions are run in our thread only when it waits,
// and it is woken once the batch it waits for is complete, not at every completion. Before 6.1, cooperative
// task work. Measured on the quiet machine against cooperative task work (tests/bench/README.md, issue 25):
// 4k QD32 1.00 vs 0.89 of fio, QD1 1.04 vs 0.99; on a machine busy with other work it was the other way
// round. The ring is made, used and destroyed by the worker thread that runs it (SINGLE_ISSUER).
//
// Waiting has no per-call timeout: a timeout argument to io_uring_enter arms and cancels a kernel hrtimer on
// every wait, i.e. on every I/O at queue depth 1. Instead one timeout request (the "tick", re-armed each time
// it fires) is kept in the ring, so a wait ends at the latest one tick later: the same bound on how late a
// worker sees a stop request, at the cost of one timer per tick instead of one per I/O.
#include <liburing.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "load/engine.hpp"
#include "load/uring_handle.hpp"

namespace usbsat::load {

void UringDeleter::operator()(io_uring* ring) const {
  io_uring_queue_exit(ring);
  delete ring;
}

namespace {

/// Create a ring with the best flags this kernel accepts; nullptr + errno-style code on failure.
UringPtr make_ring(unsigned entries, int& err) {
  constexpr unsigned kFlagSets[] = {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
                                    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
                                    IORING_SETUP_COOP_TASKRUN, 0};
  for (const unsigned flags : kFlagSets) {
    auto ring = UringPtr(new io_uring{});
    io_uring_params p{};
    p.flags = flags;
    const int r = io_uring_queue_init_params(entries, ring.get(), &p);
    if (r == 0) return ring;
    ring.release();  // not initialised: must not be queue_exit'ed
    err = -r;
    if (r != -EINVAL) break;  // EPERM/ENOSYS/ENOMEM: flags are not the problem
  }
  return nullptr;
}

/// user_data of the tick's completions; never a slot (slots are < depth ≤ 1024).
constexpr std::uint64_t kTickTag = ~std::uint64_t{0};

class UringEngine final : public Engine {
 public:
  explicit UringEngine(const EngineConfig& cfg) : fd_(cfg.fd) {
    int err = 0;
    ring_ = make_ring(cfg.depth + 1, err);  // + 1: the tick's submission entry
    if (!ring_) throw EngineUnavailable(std::string("io_uring setup failed: ") + std::strerror(err));
    if (cfg.fd >= 0 && io_uring_register_files(ring_.get(), &cfg.fd, 1) == 0) fixed_file_ = true;
    if (!cfg.buffers.empty() && cfg.buffer_size > 0) {
      std::vector<iovec> iov(cfg.depth);
      for (unsigned i = 0; i < cfg.depth; ++i)
        iov[i] = {cfg.buffers.data() + static_cast<std::size_t>(i) * cfg.buffer_size, cfg.buffer_size};
      fixed_buffers_ = io_uring_register_buffers(ring_.get(), iov.data(), cfg.depth) == 0;
    }
    cqes_.resize((cfg.depth + 1) * 2);
    out_.reserve((cfg.depth + 1) * 2);
  }
  Capabilities capabilities() const override { return {false, true}; }

  bool queue(const IoRequest& r) override {
    io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
    if (!sqe) return false;
    const int fd = fixed_file_ ? 0 : fd_;
    if (fixed_buffers_) {
      if (r.dir == IoDir::Read)
        io_uring_prep_read_fixed(sqe, fd, r.buffer, r.length, r.offset, static_cast<int>(r.slot));
      else
        io_uring_prep_write_fixed(sqe, fd, r.buffer, r.length, r.offset, static_cast<int>(r.slot));
    } else if (r.dir == IoDir::Read) {
      io_uring_prep_read(sqe, fd, r.buffer, r.length, r.offset);
    } else {
      io_uring_prep_write(sqe, fd, r.buffer, r.length, r.offset);
    }
    if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, r.slot);
    return true;
  }

  /// Deferred: the queued SQEs are handed to the kernel by the next reap(), in an io_uring_enter of their own
  /// before it looks for completions and waits only if too few are there (as fio's commit and getevents).
  /// Submitting and waiting in one call was measured slower: 4k random reads at QD32 on one loop device over
  /// tmpfs, 383k vs 510k IOPS, median of 5 interleaved runs (tests/bench/README.md).
  int submit() override {
    const auto ready = io_uring_sq_ready(ring_.get());
    unsubmitted_ = ready > 0;
    return static_cast<int>(ready);
  }

  std::span<const Completion> reap(unsigned min, std::chrono::nanoseconds timeout) override {
    out_.clear();
    if (unsubmitted_) {
      // -EAGAIN/-EBUSY: the kernel took fewer SQEs than queued; they stay in the SQ ring for the next enter.
      io_uring_submit(ring_.get());
      unsubmitted_ = io_uring_sq_ready(ring_.get()) > 0;
    }
    unsigned n = io_uring_peek_batch_cqe(ring_.get(), cqes_.data(), static_cast<unsigned>(cqes_.size()));
    if (n < min) {
      // The wait also submits what is still queued (the tick, SQEs refused above). -ETIME/-EINTR: return
      // what is there.
      int r;
      if (min > 0 && arm_tick(timeout)) {
        r = io_uring_submit_and_wait(ring_.get(), min);  // the tick ends the wait at the latest
      } else {
        __kernel_timespec ts{};
        ts.tv_sec = timeout.count() / 1000000000;
        ts.tv_nsec = timeout.count() % 1000000000;
        io_uring_cqe* cqe = nullptr;
        r = io_uring_submit_and_wait_timeout(ring_.get(), &cqe, min, &ts, nullptr);
      }
      if (r >= 0 || r == -ETIME || r == -EINTR) unsubmitted_ = io_uring_sq_ready(ring_.get()) > 0;
      n = io_uring_peek_batch_cqe(ring_.get(), cqes_.data(), static_cast<unsigned>(cqes_.size()));
    }
    for (unsigned i = 0; i < n; ++i) {
      const std::uint64_t tag = io_uring_cqe_get_data64(cqes_[i]);
      if (tag == kTickTag) {
        tick_armed_ = false;  // fired (or was refused): armed again before the next wait
        if (cqes_[i]->res != -ETIME) tick_broken_ = true;  // refused: fall back to per-wait timeouts
        continue;
      }
      out_.push_back({static_cast<std::uint32_t>(tag), cqes_[i]->res});
    }
    io_uring_cq_advance(ring_.get(), n);
    return out_;
  }

 private:
  /// Make sure a tick of at most `timeout` is in the ring (queued now if none is); false when the wait must
  /// carry its own timeout (no room for the tick's SQE, a shorter timeout than the tick, the kernel refused
  /// it). The tick's period is the first waiting call's timeout.
  bool arm_tick(std::chrono::nanoseconds timeout) {
    if (tick_broken_ || timeout.count() <= 0) return false;
    if (tick_period_.count() == 0) tick_period_ = timeout;
    if (timeout < tick_period_) return false;
    if (tick_armed_) return true;
    io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
    if (!sqe) return false;
    tick_ts_.tv_sec = tick_period_.count() / 1000000000;
    tick_ts_.tv_nsec = tick_period_.count() % 1000000000;
    io_uring_prep_timeout(sqe, &tick_ts_, 0, 0);
    io_uring_sqe_set_data64(sqe, kTickTag);
    tick_armed_ = true;
    return true;
  }

  int fd_;
  UringPtr ring_;
  bool fixed_file_ = false;
  bool fixed_buffers_ = false;
  bool unsubmitted_ = false;  // SQEs queued but not yet entered
  bool tick_armed_ = false;   // a tick is queued or in flight
  bool tick_broken_ = false;  // the kernel refused the tick: every wait carries its timeout
  std::chrono::nanoseconds tick_period_{0};
  __kernel_timespec tick_ts_{};  // read by the kernel when the tick is submitted
  std::vector<io_uring_cqe*> cqes_;
  std::vector<Completion> out_;
};

}  // namespace

std::unique_ptr<Engine> make_uring_engine(const EngineConfig& cfg) {
  return std::make_unique<UringEngine>(cfg);
}

bool uring_available() {
  int err = 0;
  return make_ring(2, err) != nullptr;
}

}  // namespace usbsat::load
