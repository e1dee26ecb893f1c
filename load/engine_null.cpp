// The null engine: every queued request completes successfully at the next reap, with no I/O (fio's
// engines/null.c). It makes the worker loop testable anywhere and measures the engine-independent overhead.
#include "load/engine_inline.hpp"

namespace usbsat::load {
namespace {

class NullEngine final : public InlineEngine<NullEngine> {
 public:
  using InlineEngine::InlineEngine;
  Capabilities capabilities() const override { return {false, false}; }
  std::int32_t complete(const IoRequest& r) const { return static_cast<std::int32_t>(r.length); }
};

}  // namespace

std::unique_ptr<Engine> make_null_engine(const EngineConfig& cfg) {
  return std::make_unique<NullEngine>(cfg.depth);
}

}  // namespace usbsat::load
