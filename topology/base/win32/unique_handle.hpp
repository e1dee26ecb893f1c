#pragma once
/// A Win32 HANDLE owned by RAII: CloseHandle once, when it goes out of scope (INVALID_HANDLE_VALUE and null
/// own nothing). The one HANDLE owner of usbsat, Windows-only: the load targets, the volume probes, the IOCP
/// port, the CLI's atomic file and lock, and the Windows scan's hubs and disks (topology/windows/win32).
#include <windows.h>

#include <utility>

namespace usbsat::topology {

class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(HANDLE h) : h_(h) {}
  ~UniqueHandle() { reset(); }
  UniqueHandle(UniqueHandle&& o) noexcept : h_(o.release()) {}
  UniqueHandle& operator=(UniqueHandle&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  HANDLE get() const { return h_; }
  explicit operator bool() const { return h_ != INVALID_HANDLE_VALUE && h_ != nullptr; }
  /// Give up ownership (the caller closes it, or hands it to the C runtime).
  HANDLE release() { return std::exchange(h_, INVALID_HANDLE_VALUE); }
  void reset(HANDLE h = INVALID_HANDLE_VALUE) {
    if (*this) ::CloseHandle(h_);
    h_ = h;
  }

 private:
  HANDLE h_ = INVALID_HANDLE_VALUE;
};

}  // namespace usbsat::topology
