#pragma once
/// A recording (`usbsat record`, read back with --from) that cannot be used: not found, not JSON, another
/// format, a newer version, a missing key or a wrong type. A ScanError, because a recording stands in for the
/// system: whoever handles an unusable system handles an unusable recording; main.cpp words it on its own.
#include "topology/model/errors.hpp"

namespace usbsat::topology::recording {

struct RecordingError : ScanError {
  using ScanError::ScanError;
};

}  // namespace usbsat::topology::recording
