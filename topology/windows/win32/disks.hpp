#pragma once
/// The disks Windows has (WIN32 builds only): every disk interface opened, its number, PnP ancestors and
/// storage properties, the volumes on it, and whether Windows runs from it.
#include <vector>

#include "topology/model/diagnostic.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

/// Every present disk; one that cannot be opened becomes a warning.
std::vector<Disk> collect_disks(std::vector<Diagnostic>& diagnostics);

}  // namespace usbsat::topology::windows
