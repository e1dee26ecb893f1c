// record_system() on Windows: the collector's snapshot (topology/windows/win32/collect.hpp) recorded by
// record_windows(); what the collector could not read is kept as diagnostics of the scan.
#include "topology/recording/recording.hpp"
#include "topology/windows/win32/collect.hpp"

namespace usbsat::topology::recording {

Recorded record_system(const ScanConfig&, Envelope meta, bool keep_serials) {
  std::vector<Diagnostic> collected;
  auto snapshot = windows::collect_snapshot(collected);
  return record_windows(std::move(snapshot), std::move(meta), keep_serials, std::move(collected));
}

}  // namespace usbsat::topology::recording
