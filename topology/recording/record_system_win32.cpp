// record_system() on Windows: the collector's snapshot (topology/windows/win32/collect.hpp) recorded by
// record_windows(); what the collector could not read is kept as diagnostics of the scan.
#include "topology/recording/recording.hpp"
#include "topology/windows/win32/collect.hpp"

namespace usbsat::topology::recording {

Recorded record_system(const ScanConfig&, Envelope meta, bool keep_serials) {
  std::vector<Diagnostic> collected;
  auto snapshot = windows::collect_snapshot(collected);
  Recorded r = record_windows(std::move(snapshot), std::move(meta), keep_serials);
  collected.insert(collected.end(), r.scan.diagnostics.begin(), r.scan.diagnostics.end());
  r.scan.diagnostics = std::move(collected);
  return r;
}

}  // namespace usbsat::topology::recording
