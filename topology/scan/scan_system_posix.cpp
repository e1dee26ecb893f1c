// scan_system() on Linux: the scan over libudev (under umockdev: the testbed).
#include "topology/scan/scan.hpp"
#include "topology/scan/udev_source.hpp"

namespace usbsat::topology {

ScanResult scan_system(const ScanConfig& config) {
  UdevSource source;
  return scan(source, config);
}

}  // namespace usbsat::topology
