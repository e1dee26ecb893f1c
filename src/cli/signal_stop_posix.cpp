// SignalStop on POSIX: SIGINT and SIGTERM are blocked in every thread and taken by sigtimedwait in one
// watcher thread, so no code runs in signal context.
#include <pthread.h>
#include <signal.h>

#include <ctime>
#include <thread>

#include "src/cli/signal_stop.hpp"

namespace usbsat::cli {

struct SignalStop::Impl {
  sigset_t set{}, old{};
  std::jthread watcher;
};

SignalStop::SignalStop(std::stop_source& src) : impl_(std::make_unique<Impl>()) {
  sigemptyset(&impl_->set);
  sigaddset(&impl_->set, SIGINT);
  sigaddset(&impl_->set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &impl_->set, &impl_->old);
  impl_->watcher = std::jthread([this, &src](std::stop_token self) {
    const timespec ts{0, 100'000'000};
    while (!self.stop_requested()) {
      const int sig = sigtimedwait(&impl_->set, nullptr, &ts);
      if (sig == SIGINT || sig == SIGTERM) {
        signalled_ = true;
        src.request_stop();
        return;
      }
    }
  });
}

SignalStop::~SignalStop() {
  impl_->watcher.request_stop();
  impl_->watcher.join();
  pthread_sigmask(SIG_SETMASK, &impl_->old, nullptr);
}

}  // namespace usbsat::cli
