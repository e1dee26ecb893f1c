#pragma once
/// Injectable monotonic clock (ninja's FormatProgressStatus takes time as a parameter for the same reason):
/// the worker and the runner read time only through this, so tests can drive them with a fake.
#include <chrono>
#include <cstdint>

namespace usbsat::load {

/// A clock is a plain function pointer returning monotonic nanoseconds: one indirect call per read, no
/// virtual dispatch, trivially copyable into every worker thread.
struct Clock {
  std::int64_t (*now_ns)() = &steady_now_ns;

  static std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace usbsat::load
