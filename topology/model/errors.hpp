#pragma once
/// Error tier (c): the environment cannot be scanned at all (no sysfs, libudev unusable).
#include <stdexcept>

namespace usbsat::topology {

struct ScanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace usbsat::topology
