// record_system() on Linux: the udev scan through a RecordingSource (recording.hpp).
#include "topology/recording/recording.hpp"
#include "topology/scan/udev_source.hpp"

namespace usbsat::topology::recording {

Recorded record_system(const ScanConfig& config, Envelope meta, bool keep_serials) {
  UdevSource live;  // no /sys: ScanError
  return record_linux(live, config, std::move(meta), keep_serials);
}

}  // namespace usbsat::topology::recording
