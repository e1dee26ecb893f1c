#include "src/cli/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "load/unique_fd.hpp"
#include "src/cli/descriptor_alias.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/temp_name.hpp"

namespace usbsat::cli {
namespace {

std::string failed(std::string_view what, const std::string& where, int err) {
  return fmt::format("cannot {} {}: {}", what, where, std::strerror(err));
}

/// Write all of `content` to `fd`: 0, or the errno of the write that failed.
int write_all(int fd, std::string_view content) {
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

/// The signal that arrived while a HeldSignals guard was alive (0: none).
volatile std::sig_atomic_t g_held_signal = 0;
extern "C" void hold_signal(int sig) {
  g_held_signal = sig;
}

/// SIGINT, SIGTERM and SIGHUP held back while a temporary file exists: one that arrives meanwhile (in
/// whichever thread the kernel picks: a blocked mask in this thread alone let another thread die of it) is
/// only noted, and raised again when the guard ends, after the rename (or the removal of the temporary file),
/// with the dispositions the run had: the default ends it then, with nothing left behind. The write is of a
/// finished text, so the wait is one write and fsync.
class HeldSignals {
 public:
  HeldSignals() {
    g_held_signal = 0;
    struct sigaction hold {};
    hold.sa_handler = hold_signal;
    sigemptyset(&hold.sa_mask);
    hold.sa_flags = SA_RESTART;
    for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &hold, &old_[i]);
  }
  ~HeldSignals() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
    if (const int sig = g_held_signal) ::raise(sig);
  }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
};

/// Give the temporary file `fd` what the file at `path` had: its owner and group where we may (root; or our
/// own group), then its mode (after the chown, which may clear set-id bits); a new file gets `access`'s mode.
/// 0, or the errno of the fchmod that failed.
int take_mode(int fd, const std::string& path, NewFileAccess access) {
  struct stat old {};
  if (::stat(path.c_str(), &old) != 0 || !S_ISREG(old.st_mode))
    return ::fchmod(fd, access == NewFileAccess::kPrivate ? 0600 : 0644) == 0 ? 0 : errno;
  if (old.st_uid != ::geteuid() || old.st_gid != ::getegid())
    if (::fchown(fd, old.st_uid, old.st_gid) != 0) (void)::fchown(fd, static_cast<uid_t>(-1), old.st_gid);
  return ::fchmod(fd, old.st_mode & 07777) == 0 ? 0 : errno;
}

/// Remove our own stale temporary files of `name` in `dir` (temp_name.hpp), those of this user only.
void remove_stale_temporaries(const std::string& dir, const std::string& name) {
  for (const auto& p : stale_temporaries(dir, name, std::filesystem::file_time_type::clock::now())) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid()) ::unlink(p.c_str());
  }
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content,
                                                 NewFileAccess access) {
  const std::filesystem::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : std::string(".");
  remove_stale_temporaries(dir, target.filename().string());
  std::string tmp = (std::filesystem::path(dir) / ("." + target.filename().string() + ".XXXXXX")).string();
  const HeldSignals held;  // from here until the temporary file is renamed or removed
  load::UniqueFd fd(::mkstemp(tmp.data()));
  if (!fd) return failed("create a temporary file in", dir, errno);

  auto abandon = [&](std::string message) {
    ::unlink(tmp.c_str());
    return std::optional<std::string>(std::move(message));
  };
  if (const int err = write_all(fd.get(), content)) return abandon(failed("write", tmp, err));
  if (const int err = take_mode(fd.get(), path, access)) return abandon(failed("set the mode of", tmp, err));
  if (::fsync(fd.get()) != 0) return abandon(failed("fsync", tmp, errno));
  if (::close(fd.release()) != 0) return abandon(failed("close", tmp, errno));
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    return abandon(failed("rename the temporary file to", path, errno));
  // The rename is durable once the directory is on disk; a failure here leaves the new file in place.
  load::UniqueFd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dfd || ::fsync(dfd.get()) != 0) return failed("fsync the directory", dir, errno);
  return std::nullopt;
}

void write_through(const std::string& path, std::string_view content) {
  // O_WRONLY alone: no O_CREAT, no O_TRUNC, and no rename or chmod afterwards.
  load::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC));
  if (!fd) throw OutputError(kExitEnvironment, failed("open", path, errno));
  if (const int err = write_all(fd.get(), content))
    throw OutputError(kExitEnvironment, failed("write", path, err));
  if (::close(fd.release()) != 0) throw OutputError(kExitEnvironment, failed("close", path, errno));
}

std::optional<int> named_descriptor(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  if (ec) return std::nullopt;
  for (int hop = 0; hop < 40; ++hop) {  // the kernel's own limit on links followed in one lookup
    if (const auto fd = descriptor_alias(p.lexically_normal().string(), static_cast<long>(::getpid())))
      return fd;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return std::nullopt;
    const auto next = std::filesystem::read_symlink(p, ec);
    if (ec) return std::nullopt;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  return std::nullopt;
}

void write_descriptor(int fd, const std::string& path, std::string_view content) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (::fcntl(fd, F_GETFL) < 0) throw OutputError(kExitEnvironment, failed("write", path, errno));
  if (const int err = write_all(fd, content)) throw OutputError(kExitEnvironment, failed("write", path, err));
}

}  // namespace usbsat::cli
