// The sync engine: one positional read or write (positional_io.hpp: pread/pwrite; ReadFile/WriteFile on
// Windows) in submit(), one request at a time (fio's psync). Used when io_uring is not
// available; synchronous, so the worker keeps one I/O in flight and a queue depth > 1 has no effect.
#include <vector>

#include "load/engine.hpp"
#include "load/positional_io.hpp"

namespace usbsat::load {
namespace {

class SyncEngine final : public Engine {
 public:
  SyncEngine(int fd, unsigned depth) : fd_(fd), depth_(depth) {
    queued_.reserve(depth);
    done_.reserve(depth);
  }
  Capabilities capabilities() const override { return {true, true}; }
  bool queue(const IoRequest& r) override {
    if (queued_.size() + done_.size() >= depth_) return false;
    queued_.push_back(r);
    return true;
  }
  int submit() override {
    const int n = static_cast<int>(queued_.size());
    for (const auto& r : queued_) done_.push_back({r.slot, transfer(r)});
    queued_.clear();
    return n;
  }
  std::span<const Completion> reap(unsigned, std::chrono::nanoseconds) override {
    out_.swap(done_);
    done_.clear();
    return out_;
  }

 private:
  std::int32_t transfer(const IoRequest& r) const { return transfer_at(fd_, r); }

  int fd_;
  unsigned depth_;
  std::vector<IoRequest> queued_;
  std::vector<Completion> done_, out_;
};

}  // namespace

std::unique_ptr<Engine> make_sync_engine(const EngineConfig& cfg) {
  return std::make_unique<SyncEngine>(cfg.fd, cfg.depth);
}

}  // namespace usbsat::load
