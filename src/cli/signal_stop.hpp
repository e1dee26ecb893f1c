#pragma once
/// SIGINT/SIGTERM → a stop request: shared by the commands that run load (`usbsat load`, `usbsat saturate`).
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <ctime>
#include <stop_token>
#include <thread>

namespace usbsat::cli {

/// SIGINT/SIGTERM → stop request. The signals are blocked in every thread and taken by sigtimedwait in one
/// watcher thread, so no code runs in signal context.
class SignalStop {
 public:
  explicit SignalStop(std::stop_source& src) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    watcher_ = std::jthread([this, &src](std::stop_token self) {
      const timespec ts{0, 100'000'000};
      while (!self.stop_requested()) {
        const int sig = sigtimedwait(&set_, nullptr, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
          signalled_ = true;
          src.request_stop();
          return;
        }
      }
    });
  }
  ~SignalStop() {
    watcher_.request_stop();
    watcher_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;
  bool signalled() const { return signalled_; }

 private:
  sigset_t set_{}, old_{};
  std::atomic<bool> signalled_{false};
  std::jthread watcher_;
};

}  // namespace usbsat::cli
