// The sync engine: one positional read or write (positional_io.hpp: pread/pwrite; ReadFile/WriteFile on
// Windows) in submit(), one request at a time (fio's psync). Used when io_uring is not
// available; synchronous, so the worker keeps one I/O in flight and a queue depth > 1 has no effect.
#include "load/engine_inline.hpp"
#include "load/positional_io.hpp"

namespace usbsat::load {
namespace {

class SyncEngine final : public InlineEngine<SyncEngine> {
 public:
  SyncEngine(int fd, unsigned depth) : InlineEngine(depth), fd_(fd) {}
  Capabilities capabilities() const override { return {true, true}; }
  std::int32_t complete(const IoRequest& r) const { return transfer_at(fd_, r); }

 private:
  int fd_;
};

}  // namespace

std::unique_ptr<Engine> make_sync_engine(const EngineConfig& cfg) {
  return std::make_unique<SyncEngine>(cfg.fd, cfg.depth);
}

}  // namespace usbsat::load
