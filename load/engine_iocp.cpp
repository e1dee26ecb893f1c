// The iocp engine (Windows): overlapped ReadFile/WriteFile on the target's HANDLE (opened
// FILE_FLAG_OVERLAPPED, and FILE_FLAG_NO_BUFFERING unless --buffered: load/win32/target.cpp), completions
// taken from an I/O completion port with GetQueuedCompletionStatusEx — Windows' counterpart of io_uring: up
// to `depth` requests in flight, many completions per wait. One OVERLAPPED per slot (slot == buffer index <
// depth), so a completion names its request without a lookup. The destructor cancels what is still in flight
// (CancelIoEx) and waits for those completions, so no OVERLAPPED or buffer is used after the worker frees it.
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <vector>

#include "load/engine.hpp"
#include "load/win32/win_error.hpp"
#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::load {
namespace {

struct Op {
  OVERLAPPED ov{};
  std::uint32_t slot = 0;
};

class IocpEngine final : public Engine {
 public:
  IocpEngine(int fd, unsigned depth) : file_(reinterpret_cast<HANDLE>(::_get_osfhandle(fd))), ops_(depth) {
    if (file_ == INVALID_HANDLE_VALUE) throw EngineUnavailable("iocp: not an open file handle");
    port_.reset(::CreateIoCompletionPort(file_, nullptr, 0, 1));
    if (!port_)
      throw EngineUnavailable("iocp: CreateIoCompletionPort failed (error " +
                              std::to_string(::GetLastError()) + ")");
    for (std::uint32_t i = 0; i < depth; ++i) ops_[i].slot = i;
    queued_.reserve(depth);
    done_.reserve(depth);
    out_.reserve(depth);
    entries_.resize(depth);
  }
  ~IocpEngine() override {
    if (in_flight_ > 0) {
      ::CancelIoEx(file_, nullptr);
      const ULONGLONG give_up = ::GetTickCount64() + 10'000;
      while (in_flight_ > 0 && ::GetTickCount64() < give_up) collect(100);
    }
  }

  Capabilities capabilities() const override { return {false, true}; }

  bool queue(const IoRequest& r) override {
    if (r.slot >= ops_.size() || queued_.size() + in_flight_ + done_.size() >= ops_.size()) return false;
    queued_.push_back(r);
    return true;
  }

  int submit() override {
    const int n = static_cast<int>(queued_.size());
    for (const auto& r : queued_) {
      Op& op = ops_[r.slot];
      op.ov = OVERLAPPED{};
      op.ov.Offset = static_cast<DWORD>(r.offset);
      op.ov.OffsetHigh = static_cast<DWORD>(r.offset >> 32);
      const BOOL ok = r.dir == IoDir::Read ? ::ReadFile(file_, r.buffer, r.length, nullptr, &op.ov)
                                           : ::WriteFile(file_, r.buffer, r.length, nullptr, &op.ov);
      const DWORD e = ok ? ERROR_SUCCESS : ::GetLastError();
      if (ok || e == ERROR_IO_PENDING) {
        ++in_flight_;  // success or pending: the completion arrives on the port either way
      } else {
        done_.push_back({r.slot, io_result_from_win32(e)});
      }
    }
    queued_.clear();
    return n;
  }

  std::span<const Completion> reap(unsigned min, std::chrono::nanoseconds timeout) override {
    out_.clear();
    out_.swap(done_);
    const ULONGLONG deadline =
        ::GetTickCount64() +
        static_cast<ULONGLONG>(std::chrono::ceil<std::chrono::milliseconds>(timeout).count());
    // Take what is ready without waiting; wait only while fewer than `min` are in hand.
    collect(0);
    while (out_.size() < min && in_flight_ > 0) {
      const ULONGLONG now = ::GetTickCount64();
      if (now >= deadline) break;
      collect(static_cast<DWORD>(deadline - now));
    }
    return out_;
  }

 private:
  /// Move the completions the port has (waiting up to `wait_ms` for the first) into out_.
  void collect(DWORD wait_ms) {
    ULONG got = 0;
    if (!::GetQueuedCompletionStatusEx(port_.get(), entries_.data(), static_cast<ULONG>(entries_.size()),
                                       &got, wait_ms, FALSE))
      return;  // WAIT_TIMEOUT
    for (ULONG i = 0; i < got; ++i) {
      auto* op = reinterpret_cast<Op*>(entries_[i].lpOverlapped);  // ov is Op's first member
      --in_flight_;
      DWORD n = 0;
      const bool ok = ::GetOverlappedResult(file_, &op->ov, &n, FALSE);
      out_.push_back({op->slot, ok ? static_cast<std::int32_t>(n) : io_result_from_win32(::GetLastError())});
    }
  }

  HANDLE file_;
  topology::UniqueHandle port_;
  std::vector<Op> ops_;
  std::vector<IoRequest> queued_;
  std::vector<Completion> done_, out_;
  std::vector<OVERLAPPED_ENTRY> entries_;
  unsigned in_flight_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_iocp_engine(const EngineConfig& cfg) {
  return std::make_unique<IocpEngine>(cfg.fd, cfg.depth);
}

}  // namespace usbsat::load
