#pragma once
/// SIGINT/SIGTERM (Ctrl-C, Ctrl-Break, closing the console on Windows) → a stop request: shared by the
/// commands that run until stopped or run load (`load`, `saturate`, `watch`, `top`). One home per platform:
/// signal_stop_posix.cpp (the signals blocked in every thread, taken by sigtimedwait in one watcher thread,
/// so no code runs in signal context) and win32/signal_stop.cpp (SetConsoleCtrlHandler; Windows runs the
/// handler in a thread of its own).
#include <atomic>
#include <memory>
#include <stop_token>

namespace usbsat::cli {

class SignalStop {
 public:
  explicit SignalStop(std::stop_source& src);
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;
  bool signalled() const { return signalled_; }

 private:
  struct Impl;
  std::atomic<bool> signalled_{false};
  std::unique_ptr<Impl> impl_;
};

}  // namespace usbsat::cli
