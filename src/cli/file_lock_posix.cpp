#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "load/unique_fd.hpp"
#include "src/cli/file_lock.hpp"

namespace usbsat::cli {

struct FileLock::Handle {
  load::UniqueFd fd;
};

FileLock::FileLock(const std::string& path, int timeout_ms) {
  load::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) {
    error_ = fmt::format("cannot open the lock file {}: {}", path, std::strerror(errno));
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      error_ = fmt::format("cannot lock {}: {}", path, std::strerror(errno));
      return;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      error_ = fmt::format("{} stayed locked by another usbsat for {} s", path, timeout_ms / 1000);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  handle_ = std::make_unique<Handle>(Handle{std::move(fd)});
}

FileLock::~FileLock() {
  if (handle_) ::flock(handle_->fd.get(), LOCK_UN);  // closing the fd releases it too; said explicitly
}

}  // namespace usbsat::cli
