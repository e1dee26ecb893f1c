#pragma once
/// Write safety on Windows, the pure half (portable, table-tested in windows_test on both platforms): which
/// paths are disks, and whether a disk may be written given the volumes Windows has on it. Gathering those
/// facts (FindFirstVolumeW, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, the system volume) is
/// load/win32/safety.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/safety.hpp"

namespace usbsat::load {

/// `\\.\PhysicalDriveN` (any case, `/` or `\`) → N; anything else → nullopt.
std::optional<unsigned> parse_physical_drive(std::string_view path);

/// A volume as Windows reports it: its mount points (C:\, D:\Data\) and the disks its extents lie on.
struct WindowsVolume {
  std::string name;                       ///< \\?\Volume{…}\ (for messages when it has no mount point)
  std::vector<std::string> mount_points;  ///< GetVolumePathNamesForVolumeNameW; empty = not mounted
  std::vector<unsigned> disks;            ///< IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS
};

struct WindowsDiskFacts {
  unsigned disk = 0;                       ///< N of \\.\PhysicalDriveN
  std::vector<WindowsVolume> volumes;      ///< every volume of the system
  std::vector<unsigned> system_disks;      ///< the disks of the volume holding the Windows directory
  std::optional<std::string> system_root;  ///< that volume's mount point (C:\), for the message
};

/// Pure: refused when the disk holds the system volume (or the system disk is unknown: nothing to compare
/// against), or any volume with a mount point lies on it; allowed otherwise. The --write / --allow-write rule
/// is checked before (refuse_without_permission, safety.hpp).
SafetyDecision decide_disk_write(const WindowsDiskFacts& facts);

}  // namespace usbsat::load
