// FileLock on Windows: LockFileEx on the lock file (CreateFileW OPEN_ALWAYS), polled until the timeout.
#include <windows.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "src/cli/file_lock.hpp"
#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::cli {

struct FileLock::Handle {
  topology::UniqueHandle file;
};

FileLock::FileLock(const std::string& path, int timeout_ms) {
  topology::UniqueHandle f(::CreateFileW(std::filesystem::path(path).wstring().c_str(),
                                         GENERIC_READ | GENERIC_WRITE,
                                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                         OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!f) {
    error_ = fmt::format("cannot open the lock file {}: Windows error {}", path, ::GetLastError());
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    OVERLAPPED at{};
    if (::LockFileEx(f.get(), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      error_ = fmt::format("{} stayed locked by another usbsat for {} s", path, timeout_ms / 1000);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  handle_ = std::make_unique<Handle>(Handle{std::move(f)});
}

FileLock::~FileLock() {
  if (!handle_) return;
  OVERLAPPED at{};
  ::UnlockFileEx(handle_->file.get(), 0, 1, 0, &at);
}

}  // namespace usbsat::cli
