#pragma once
/// A load target: a block device or a regular file, opened for the run (O_DIRECT when possible) and probed
/// for its size and logical block size.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "load/unique_fd.hpp"

namespace usbsat::load {

/// What was learned about one target when it was opened.
struct TargetInfo {
  std::string path;              ///< as given on the command line
  bool is_block = false;         ///< a block device (else a regular file)
  bool direct = false;           ///< O_DIRECT is in effect
  std::uint64_t size_bytes = 0;  ///< BLKGETSIZE64 or st_size
  std::uint32_t logical_block =
      512;                 ///< BLKSSZGET; for files the alignment O_DIRECT needs (st_blksize, ≤4096)
  unsigned dev_major = 0;  ///< block devices: st_rdev
  unsigned dev_minor = 0;
};

enum class Access { ReadOnly, ReadWrite };

/// The notice of a target another process holds a lock on while it is opened (usually a second usbsat load;
/// POSIX: every load holds flock(LOCK_EX) on each target for its run).
inline constexpr const char* kLockedNotice =
    "another process holds a lock on it (another usbsat load, or a tool partitioning it): it shares the "
    "device with this run, so the figures are not this run's alone";

/// An open target. `notice` is non-empty when the open degraded (O_DIRECT refused → buffered I/O) or another
/// process holds the target's lock (kLockedNotice); both are said with "; " between them.
struct OpenedTarget {
  OpenedTarget() = default;
  OpenedTarget(OpenedTarget&&) = default;
  OpenedTarget& operator=(OpenedTarget&&) = delete;  // would close a target without giving up its lock first
  /// Gives up this load's lock on the target before `fd` closes: an io_uring ring that registered the file
  /// may keep it open a while after the ring is torn down (the kernel frees rings in the background), and the
  /// lock lives as long as the file does. Nothing to give up on Windows (opening takes no lock).
  ~OpenedTarget();

  UniqueFd fd;
  TargetInfo info;
  std::string notice;
};

struct OpenOptions {
  Access access = Access::ReadOnly;
  bool direct = true;      ///< ask for O_DIRECT; fall back to buffered I/O with a notice when refused
  bool exclusive = false;  ///< block devices: O_EXCL, fails with EBUSY when mounted/claimed
};

/// Open and probe `path`. Throws TargetError (with errno) when it cannot be opened or is neither a block
/// device nor a regular file, or has size 0.
/// A FIFO, socket, directory or character device is refused before open(), so a FIFO cannot block the run.
OpenedTarget open_target(const std::string& path, const OpenOptions& opt);

/// The first pair of `paths` (i < j) naming the same target: the same block device (st_rdev), the same file
/// (st_dev and st_ino, so also through a symlink or hard link), or the same string when stat fails.
std::optional<std::pair<std::size_t, std::size_t>> find_named_twice(std::span<const std::string> paths);

}  // namespace usbsat::load
