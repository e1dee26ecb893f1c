#include "load/target.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "load/errors.hpp"

namespace usbsat::load {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int err) {
  const std::string reason = std::string(what) + ": " + std::strerror(err);
  throw TargetError(path + ": " + reason, err, reason);
}

}  // namespace

OpenedTarget open_target(const std::string& path, const OpenOptions& opt) {
  OpenedTarget t;
  t.info.path = path;
  int flags = O_CLOEXEC | (opt.access == Access::ReadWrite ? O_RDWR : O_RDONLY);
  if (opt.exclusive) flags |= O_EXCL;  // only meaningful (and only used) on block devices
  // Only block devices and regular files: anything else is refused before open(), which would block on a
  // FIFO without a writer.
  struct stat pre {};
  if (::stat(path.c_str(), &pre) != 0) fail(path, "cannot open", errno);
  if (!S_ISBLK(pre.st_mode) && !S_ISREG(pre.st_mode))
    fail(path, "not a block device or regular file", EINVAL);
  int fd = -1;
  if (opt.direct) {
    fd = ::open(path.c_str(), flags | O_DIRECT);
    if (fd >= 0)
      t.info.direct = true;
    else if (errno == EINVAL) {
      // tmpfs and some FUSE filesystems refuse O_DIRECT: run buffered, and say so.
      fd = ::open(path.c_str(), flags);
      if (fd >= 0)
        t.notice = "O_DIRECT refused by the filesystem; using buffered I/O (results include the page cache)";
    }
  } else {
    fd = ::open(path.c_str(), flags);
  }
  if (fd < 0) fail(path, errno == EBUSY ? "in use (exclusive open failed)" : "cannot open", errno);
  t.fd = UniqueFd(fd);
  // Two loads on one device (under any of its names) share it, and each would report the mix as its own
  // figure: every load holds an exclusive BSD lock on each target for its run, and says so when another
  // process holds one (flock(2) locks the inode, so /dev/sdb and /dev/disk/by-id/... are one lock).
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    if (!t.notice.empty()) t.notice += "; ";
    t.notice += kLockedNotice;
  }

  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path, "fstat", errno);
  if (S_ISBLK(st.st_mode)) {
    t.info.is_block = true;
    t.info.dev_major = major(st.st_rdev);
    t.info.dev_minor = minor(st.st_rdev);
    std::uint64_t bytes = 0;
    if (::ioctl(fd, BLKGETSIZE64, &bytes) != 0) fail(path, "BLKGETSIZE64", errno);
    t.info.size_bytes = bytes;
    int lbs = 0;
    if (::ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0) t.info.logical_block = static_cast<std::uint32_t>(lbs);
  } else if (S_ISREG(st.st_mode)) {
    t.info.size_bytes = static_cast<std::uint64_t>(st.st_size);
    const auto blk = static_cast<std::uint32_t>(st.st_blksize > 0 ? st.st_blksize : 512);
    t.info.logical_block = std::clamp<std::uint32_t>(blk, 512, 4096);
  } else {
    fail(path, "not a block device or regular file", EINVAL);
  }
  if (t.info.size_bytes == 0) fail(path, "size is 0", EINVAL);
  return t;
}

std::optional<std::pair<std::size_t, std::size_t>> find_named_twice(std::span<const std::string> paths) {
  struct Id {
    bool known = false;
    struct stat st {};
  };
  std::vector<Id> ids(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) ids[i].known = ::stat(paths[i].c_str(), &ids[i].st) == 0;
  auto same = [&](std::size_t i, std::size_t j) {
    const Id &a = ids[i], &b = ids[j];
    if (!a.known || !b.known) return paths[i] == paths[j];
    if (S_ISBLK(a.st.st_mode) && S_ISBLK(b.st.st_mode)) return a.st.st_rdev == b.st.st_rdev;
    return a.st.st_dev == b.st.st_dev && a.st.st_ino == b.st.st_ino;
  };
  for (std::size_t j = 1; j < paths.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (same(i, j)) return std::pair{i, j};
  return std::nullopt;
}

OpenedTarget::~OpenedTarget() {
  if (fd) ::flock(fd.get(), LOCK_UN);
}

}  // namespace usbsat::load
