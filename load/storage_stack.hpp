#pragma once
/// The storage stack around a block device: what it is built on and what is built on it. Write
/// safety works on this closure, not on names: writing to a member writes bytes that every other member of
/// the closure may see (a second loop device over a mounted image, dm-linear over a partition of a mounted
/// disk, a loop device over a file whose image is also mounted elsewhere).
///
/// The walk is pure, over a StackView (a map of what /sys/class/block says, filled by read_stack_view in
/// safety_posix.cpp); tests build views by hand.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "topology/base/mountinfo.hpp"

namespace usbsat::load {

using topology::DevNum;

/// A regular file by identity: st_dev (as major:minor) and st_ino.
struct FileId {
  DevNum dev;
  std::uint64_t ino = 0;
  auto operator<=>(const FileId&) const = default;
};

/// One block device as sysfs shows it (/sys/class/block/NAME).
struct BlockNode {
  DevNum dev;
  std::vector<std::string> holders;  ///< holders/: dm, md, bcache built on it
  std::vector<std::string> slaves;   ///< slaves/: what it is built on
  std::string whole;                 ///< a partition's disk (the parent directory), else empty
  /// A loop device's backing file (loop/backing_file): a regular file by identity, or a block device by its
  /// device number; `backing_path` as sysfs names it.
  std::optional<FileId> backing_file;
  std::optional<DevNum> backing_block;
  std::string backing_path;
};

/// What /sys/class/block says, by kernel name. Names that appear as holders or slaves but are missing here
/// (garbage, a race with removal) are ignored by the walk.
struct StackView {
  std::map<std::string, BlockNode> blocks;
};

/// One member of a closure: a block device (`block` set, `name` its kernel name) or a regular file (`file`
/// set, `name` its path), and how it was reached from the start ("loop2 → backing file /x.img → loop device
/// loop0 over it"; just the name for the start itself).
struct StackMember {
  std::string name;
  std::optional<DevNum> block;
  std::optional<FileId> file;
  std::string chain;
  bool below = false;  ///< reached downwards (the start is built on it), not built on the start
};

/// At most this many members: a cycle or garbage in sysfs ends the walk here instead of hanging.
inline constexpr std::size_t kMaxStackMembers = 4096;

/// The closure of block device `name`: first everything it is built on (slaves, the disk of a partition, a
/// loop device's backing file or device), transitively; then everything built on any of those (holders,
/// partitions, loop devices over the same file or device, loop devices over a file on a filesystem that
/// lives on the device), transitively. The start comes first; unknown `name` → just the start.
std::vector<StackMember> stack_closure(const StackView& view, const std::string& name);

}  // namespace usbsat::load
