// The null engine: every queued request completes successfully at the next reap, with no I/O (fio's
// engines/null.c). It makes the worker loop testable anywhere and measures the engine-independent overhead.
#include <vector>

#include "load/engine.hpp"

namespace usbsat::load {
namespace {

class NullEngine final : public Engine {
 public:
  explicit NullEngine(unsigned depth) : depth_(depth) {
    queued_.reserve(depth);
    done_.reserve(depth);
    out_.reserve(depth);
  }
  Capabilities capabilities() const override { return {false, false}; }
  bool queue(const IoRequest& r) override {
    if (queued_.size() + done_.size() >= depth_) return false;
    queued_.push_back({r.slot, static_cast<std::int32_t>(r.length)});
    return true;
  }
  int submit() override {
    const int n = static_cast<int>(queued_.size());
    done_.insert(done_.end(), queued_.begin(), queued_.end());
    queued_.clear();
    return n;
  }
  std::span<const Completion> reap(unsigned, std::chrono::nanoseconds) override {
    out_.swap(done_);
    done_.clear();
    return out_;
  }

 private:
  unsigned depth_;
  std::vector<Completion> queued_, done_, out_;
};

}  // namespace

std::unique_ptr<Engine> make_null_engine(const EngineConfig& cfg) { return std::make_unique<NullEngine>(cfg.depth); }

}  // namespace usbsat::load
