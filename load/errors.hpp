#pragma once
/// Error tier (c) of load/: the environment cannot run a load at all (no engine works, no target opens).
/// One bad target is not an exception but a recorded error in its result (tier b).
#include <stdexcept>
#include <string>

namespace usbsat::load {

/// The environment is unusable for load generation; caught only in src/cli/main.cpp (exit code 3).
struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One target cannot be opened or probed; the caller records it against that target.
struct TargetError : std::runtime_error {
  TargetError(const std::string& what, int err, std::string why = {})
      : std::runtime_error(what), error(err), reason(why.empty() ? what : std::move(why)) {}
  int error;           ///< errno of the failing call (0 when not an OS error)
  std::string reason;  ///< what() without the target's path, for lines that name the target already
};

}  // namespace usbsat::load
