#pragma once
/// /proc/self/mountinfo, read once for everyone: the scan's mount points per block device and load's write
/// safety (what is mounted, from which source) parse it here. A library of its own that needs only the
/// standard library, so load links it without linking the rest of topology.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::topology {

/// A device number, major:minor.
struct DevNum {
  unsigned major = 0;
  unsigned minor = 0;
  auto operator<=>(const DevNum&) const = default;
};

/// "8:16", "8:16\n" (a sysfs `dev` file) -> {8, 16}. Anything but two decimal numbers that fit an unsigned
/// around one colon -> nullopt.
std::optional<DevNum> parse_devnum(std::string_view s);

/// Decode the octal escapes of mountinfo/fstab fields: "/media/my\040disk" -> "/media/my disk".
std::string unescape_octal(std::string_view s);

/// One line of mountinfo: "36 25 8:17 / /media/my\040disk rw,nosuid shared:1 - vfat /dev/sdb1 rw".
struct MountEntry {
  DevNum dev;               ///< field 3, st_dev of the filesystem (an anonymous 0:N for btrfs, tmpfs, …)
  std::string mount_point;  ///< field 5, octal escapes decoded
  std::string fstype;       ///< the first field after " - "
  std::string source;       ///< the second field after " - " (/dev/sdb1), octal escapes decoded
};

/// One line; nullopt when malformed: fewer than six fields before the " - " separator, fewer than three
/// after it, a bad device number.
std::optional<MountEntry> parse_mountinfo_line(std::string_view line);

/// Every well-formed line in file order; a malformed line is skipped.
std::vector<MountEntry> parse_mountinfo(std::string_view text);

/// The 1-based number of the first malformed line that is not blank, nullopt when every line parses: a file
/// that is not mountinfo at all is told apart from one with no mounts.
std::optional<std::size_t> first_malformed_mountinfo_line(std::string_view text);

}  // namespace usbsat::topology
