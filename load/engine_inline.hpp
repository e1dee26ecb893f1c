#pragma once
/// The shape of the engines that complete a request inside submit() (fio's synchronous engines): the null
/// engine (no I/O) and the sync engine (one positional read or write). `Derived::complete(req)` does the
/// request and returns its result (bytes, or -errno); queueing, depth and reaping are here, once.
#include <vector>

#include "load/engine.hpp"

namespace usbsat::load {

template <class Derived>
class InlineEngine : public Engine {
 public:
  explicit InlineEngine(unsigned depth) : depth_(depth) {
    queued_.reserve(depth);
    done_.reserve(depth);
    out_.reserve(depth);
  }
  bool queue(const IoRequest& r) final {
    if (queued_.size() + done_.size() >= depth_) return false;
    queued_.push_back(r);
    return true;
  }
  int submit() final {
    const int n = static_cast<int>(queued_.size());
    for (const auto& r : queued_) done_.push_back({r.slot, static_cast<const Derived&>(*this).complete(r)});
    queued_.clear();
    return n;
  }
  std::span<const Completion> reap(unsigned, std::chrono::nanoseconds) final {
    out_.swap(done_);
    done_.clear();
    return out_;
  }

 private:
  unsigned depth_;
  std::vector<IoRequest> queued_;
  std::vector<Completion> done_, out_;
};

}  // namespace usbsat::load
