// scan_system() on Windows: the live snapshot through the portable builder.
#include "topology/scan/scan.hpp"
#include "topology/windows/builder.hpp"
#include "topology/windows/win32/collect.hpp"

namespace usbsat::topology {

ScanResult scan_system(const ScanConfig&) {
  std::vector<Diagnostic> collected;
  const auto snapshot = windows::collect_snapshot(collected);
  return windows::build_topology(snapshot, std::move(collected));
}

}  // namespace usbsat::topology
