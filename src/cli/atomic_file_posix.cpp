#include "src/cli/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "load/unique_fd.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/output_file.hpp"

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

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
  const std::filesystem::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : std::string(".");
  std::string tmp = (std::filesystem::path(dir) / ("." + target.filename().string() + ".XXXXXX")).string();
  load::UniqueFd fd(::mkstemp(tmp.data()));
  if (!fd) return failed("create a temporary file in", dir, errno);

  auto abandon = [&](std::string message) {
    ::unlink(tmp.c_str());
    return std::optional<std::string>(std::move(message));
  };
  if (const int err = write_all(fd.get(), content)) return abandon(failed("write", tmp, err));
  if (::fchmod(fd.get(), 0644) != 0) return abandon(failed("set the mode of", tmp, errno));
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

}  // namespace usbsat::cli
