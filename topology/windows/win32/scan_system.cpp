// scan_system() on Windows: the live snapshot through the portable builder.
#include "topology/scan.hpp"
#include "topology/windows/builder.hpp"
#include "topology/windows/win32/collect.hpp"

namespace usbsat::topology {

ScanResult scan_system(const ScanConfig&) {
  std::vector<Diagnostic> collected;
  auto result = windows::build_topology(windows::collect_snapshot(collected));
  collected.insert(collected.end(), result.diagnostics.begin(), result.diagnostics.end());
  result.diagnostics = std::move(collected);
  return result;
}

}  // namespace usbsat::topology
