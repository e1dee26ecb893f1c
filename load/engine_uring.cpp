// The io_uring engine (liburing): one ring per worker, the target fd registered as fixed file 0 and the
// worker's buffers registered as fixed buffers when the kernel allows it (saves a per-I/O fd lookup and page
// pinning, as fio's registerfiles/fixedbufs do). Rings are set up single-issuer with deferred task work when
// the kernel supports it: completions are then processed only when we wait for them, in our thread.
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

class UringEngine final : public Engine {
 public:
  explicit UringEngine(const EngineConfig& cfg) : fd_(cfg.fd), depth_(cfg.depth) {
    int err = 0;
    ring_ = make_ring(cfg.depth, err);
    if (!ring_) throw EngineUnavailable(std::string("io_uring setup failed: ") + std::strerror(err));
    if (cfg.fd >= 0 && io_uring_register_files(ring_.get(), &cfg.fd, 1) == 0) fixed_file_ = true;
    if (!cfg.buffers.empty() && cfg.buffer_size > 0) {
      std::vector<iovec> iov(cfg.depth);
      for (unsigned i = 0; i < cfg.depth; ++i)
        iov[i] = {cfg.buffers.data() + static_cast<std::size_t>(i) * cfg.buffer_size, cfg.buffer_size};
      fixed_buffers_ = io_uring_register_buffers(ring_.get(), iov.data(), cfg.depth) == 0;
    }
    cqes_.resize(cfg.depth * 2);
    out_.reserve(cfg.depth * 2);
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

  /// Deferred: the queued SQEs are handed to the kernel by the next reap() in the same io_uring_enter that
  /// waits for completions (fio needs two system calls per batch, commit and getevents; this needs one).
  /// A reap with min == 0 submits without waiting.
  int submit() override {
    const auto ready = io_uring_sq_ready(ring_.get());
    unsubmitted_ = ready > 0;
    return static_cast<int>(ready);
  }

  std::span<const Completion> reap(unsigned min, std::chrono::nanoseconds timeout) override {
    out_.clear();
    unsigned n = 0;
    if (!unsubmitted_) n = io_uring_peek_batch_cqe(ring_.get(), cqes_.data(), static_cast<unsigned>(cqes_.size()));
    if (unsubmitted_ || n < min) {
      __kernel_timespec ts{};
      ts.tv_sec = timeout.count() / 1000000000;
      ts.tv_nsec = timeout.count() % 1000000000;
      io_uring_cqe* cqe = nullptr;
      // -EAGAIN/-EBUSY: the kernel took fewer SQEs than queued; they stay in the SQ ring and go with the next
      // enter. -ETIME/-EINTR: return what is there.
      const int r = io_uring_submit_and_wait_timeout(ring_.get(), &cqe, min, &ts, nullptr);
      if (r >= 0 || r == -ETIME || r == -EINTR) unsubmitted_ = io_uring_sq_ready(ring_.get()) > 0;
      n = io_uring_peek_batch_cqe(ring_.get(), cqes_.data(), static_cast<unsigned>(cqes_.size()));
    }
    for (unsigned i = 0; i < n; ++i)
      out_.push_back({static_cast<std::uint32_t>(io_uring_cqe_get_data64(cqes_[i])), cqes_[i]->res});
    io_uring_cq_advance(ring_.get(), n);
    return out_;
  }

 private:
  int fd_;
  unsigned depth_;
  UringPtr ring_;
  bool fixed_file_ = false;
  bool fixed_buffers_ = false;
  bool unsubmitted_ = false;  // SQEs queued but not yet entered
  std::vector<io_uring_cqe*> cqes_;
  std::vector<Completion> out_;
};

}  // namespace

std::unique_ptr<Engine> make_uring_engine(const EngineConfig& cfg) { return std::make_unique<UringEngine>(cfg); }

bool uring_available() {
  int err = 0;
  return make_ring(2, err) != nullptr;
}

}  // namespace usbsat::load
