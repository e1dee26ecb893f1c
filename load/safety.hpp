#pragma once
/// Write safety. Reading is always allowed; writing needs `--write` and `--allow-write` naming exactly that
/// block device or file. No member of a block device's storage stack (storage_stack.hpp: what it is built on
/// and what is built on that: partitions, holders such as dm/md, loop devices over the same file) may be
/// mounted, swapped on or in use (O_EXCL open fails), or hold the root or boot filesystem. A regular file
/// must not be a swap file or back a loop device whose stack is mounted or in use: that would write under a
/// filesystem.
///
/// The decision is a pure function of facts (decide_write); gathering the facts from /proc/self/mountinfo and
/// /sys is separate (gather_device_facts) and takes its paths as parameters so tests can inject them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/storage_stack.hpp"
#include "topology/base/mountinfo.hpp"

namespace usbsat::load {

/// One line of /proc/self/mountinfo: the one reader is topology's mountinfo library (parse_mountinfo), the
/// only part of topology that load links (DevNum comes with it, storage_stack.hpp).
using topology::MountEntry;

/// A member of the storage stack that is in use other than by a mount: held exclusively (an O_EXCL open
/// fails with EBUSY), used as swap, or not checkable.
struct MemberUse {
  std::string member;  ///< kernel name or file path; empty = the device itself
  std::string chain;   ///< how the member is reached from the device (storage_stack.hpp), may be empty
  std::string why;     ///< "is in use (exclusive open failed)", "is used as swap", "cannot be checked (…)"
};

/// Everything known about a block device that matters for writing to it.
struct DeviceFacts {
  std::string path;  ///< canonical path of the device node (/dev/sdb)
  DevNum dev;
  /// The other block devices of its storage stack (stack_closure): what it is built on, what is built on
  /// that or on it (partitions, holders, loop devices over the same file), not including `dev`.
  std::vector<DevNum> related;
  std::vector<std::string> related_names;   ///< kernel names of `related` (sdb1, dm-0), same order
  std::string name;                         ///< kernel name (sdb)
  std::vector<std::string> related_chains;  ///< how each of `related` is reached (may be shorter: none known)
  std::vector<MemberUse> in_use;            ///< members (itself included) held, swapped on or uncheckable
};

/// A mount as resolved against device numbers: the mount entry plus the dev number of its source node (for
/// sources like /dev/sdb1 whose st_dev in mountinfo is an anonymous 0:N, e.g. btrfs).
struct ResolvedMount {
  MountEntry entry;
  std::optional<DevNum> source_dev;
};

/// A loop device whose backing file is the regular file a job would write: writing the file writes what the
/// loop device (and a filesystem mounted from it) sees.
struct BackedLoop {
  DeviceFacts facts;  ///< the loop device (path /dev/loopN), its partitions and holders
  /// Why the loop device counts as held beyond `facts.in_use` (which covers its whole stack): "cannot be
  /// checked (no device node …)" when its node is missing; empty otherwise.
  std::string held;
};

struct WriteRequest {
  bool write = false;  ///< --write given
  bool is_block = false;
  std::string target;                    ///< canonical target path
  std::vector<std::string> allow_write;  ///< canonical --allow-write paths
  std::vector<BackedLoop> backs;         ///< regular files: the loop devices this file backs
  bool swap = false;                     ///< regular files: the file is a swap file (/proc/swaps)
};

struct SafetyDecision {
  bool allowed = true;
  std::string reason;  ///< why not (one sentence), empty when allowed
};

/// The rule both platforms share, pure (safety_common.cpp): writing needs --write, and `target` named exactly
/// in `allow_write` (both canonical). nullopt when permitted.
std::optional<SafetyDecision> refuse_without_permission(bool write, bool is_block, const std::string& target,
                                                        const std::vector<std::string>& allow_write);

/// The write check of one target as `usbsat load` runs it, on this system: canonical names, then the facts
/// and the decision. Linux (safety_posix.cpp): mountinfo, sysfs, loop devices → decide_write. Windows
/// (win32/safety.cpp): volumes and the system disk → decide_disk_write (windows_safety.hpp); a regular file
/// needs only the permission.
SafetyDecision check_write(const std::string& target, bool write,
                           const std::vector<std::string>& allow_write);

/// The members of `target`'s storage stack now, by kernel name: a block device's related_names
/// (gather_device_facts), a regular file's backing loop devices and theirs. Windows: none (a disk has no
/// stack of members there).
std::vector<std::string> stack_members(const std::string& target);

/// The write check of a target while a write load runs on it (every second, issue 41): check_write's facts
/// gathered again, but a block device's members are not probed with exclusive opens (the run holds the device
/// itself, and a partition of a held disk cannot be claimed either); instead a member that `before`
/// (stack_members() at the start) lacks holds the target now: a loop device attached over the file, a
/// device-mapper or md device built on the disk. A mount of any member refuses as at the start.
SafetyDecision recheck_write(const std::string& target, const std::vector<std::string>& allow_write,
                             const std::vector<std::string>& before);

/// Whether `path` names a disk (Linux: a block device node; Windows: \\.\PhysicalDriveN), not a file.
bool is_block_device(const std::string& path);

/// Pure decision for one target that the job would write to. `facts` is required for block devices; for
/// regular files `req.backs` lists the loop devices the file backs.
SafetyDecision decide_write(const WriteRequest& req, const DeviceFacts* facts,
                            const std::vector<ResolvedMount>& mounts);

/// Read `sys_root`/class/block into a StackView (storage_stack.hpp): each device's dev, holders, slaves,
/// partition parent and a loop device's backing file (stat: file identity or block device number; for an
/// unlinked "(deleted)" or unresolvable path the identity from LOOP_GET_STATUS64 on /dev/NAME).
StackView read_stack_view(const std::string& sys_root = "/sys");

/// Gather the facts of block device `path` from `sys_root` (/sys) and `swaps_path` (/proc/swaps): its whole
/// storage stack (stack_closure), and which members are held (an O_EXCL open of each member that has no
/// holders fails with EBUSY), swapped on or cannot be checked. nullopt when not a block device.
/// `probe_exclusive` false: no exclusive opens (recheck_write: the run's own hold would fail them).
std::optional<DeviceFacts> gather_device_facts(const std::string& path, const std::string& sys_root = "/sys",
                                               const std::string& swaps_path = "/proc/swaps",
                                               bool probe_exclusive = true);

/// The loop devices (sysfs entries `sys_root`/class/block/NAME) whose backing file is `path`: the same name,
/// or the same file (st_dev and st_ino, e.g. through another link), in name order.
std::vector<std::string> loops_backed_by(const std::string& path, const std::string& sys_root = "/sys");

/// The loop devices regular file `path` backs (directly), each with the facts of its whole storage stack
/// (gather_device_facts) and whether a member of it is held.
std::vector<BackedLoop> gather_backed_loops(const std::string& path, const std::string& sys_root = "/sys",
                                            const std::string& swaps_path = "/proc/swaps");

/// Read and resolve `mountinfo_path` (stat of each /dev/… source). Unreadable → empty.
std::vector<ResolvedMount> read_mounts(const std::string& mountinfo_path = "/proc/self/mountinfo");

/// realpath(path), or `path` itself when it cannot be resolved.
std::string canonical_path(const std::string& path);
/// canonical_path() of each (the --allow-write list), in order (safety_common.cpp).
std::vector<std::string> canonical_paths(const std::vector<std::string>& paths);

}  // namespace usbsat::load
