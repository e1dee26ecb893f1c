#pragma once
/// An exclusive advisory lock on a file, held while the object lives (RAII): the history store's writers
/// take it around read-merge-replace, so two usbsat processes writing at once lose nothing. POSIX: flock()
/// on `PATH` opened (created) for writing (file_lock_posix.cpp); Windows: LockFileEx (win32/file_lock.cpp).
#include <memory>
#include <optional>
#include <string>

namespace usbsat::cli {

class FileLock {
 public:
  /// Lock `path` (created 0600 when absent), waiting for another holder at most `timeout_ms`. On failure
  /// `error()` says why and nothing is held.
  FileLock(const std::string& path, int timeout_ms);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return !error_; }
  const std::optional<std::string>& error() const { return error_; }

 private:
  struct Handle;
  std::unique_ptr<Handle> handle_;
  std::optional<std::string> error_;
};

}  // namespace usbsat::cli
