#pragma once
/// The live Windows collector (WIN32 builds only): CfgMgr32/SetupAPI and the USB hub and storage IOCTLs into
/// a WindowsSnapshot, nothing decided. What a call fails to read stays unknown; a failure that hides a whole
/// device (a hub that cannot be opened) becomes a diagnostic. build_topology() does the rest.
#include <vector>

#include "topology/model/diagnostic.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

WindowsSnapshot collect_snapshot(std::vector<Diagnostic>& diagnostics);

}  // namespace usbsat::topology::windows
