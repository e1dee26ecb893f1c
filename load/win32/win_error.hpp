#pragma once
/// Windows error codes (GetLastError) → the errno values load/ reports (TargetError::error, -errno results),
/// so the worker, the runner and cmd_load treat both platforms alike. Windows-only (load/win32/).
#include <windows.h>

#include <cerrno>
#include <cstdint>

namespace usbsat::load {

inline int errno_from_win32(DWORD e) {
  switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
      return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT:
      return EACCES;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_BUSY:
      return EBUSY;
    case ERROR_INVALID_PARAMETER:
    case ERROR_INVALID_FUNCTION:
    case ERROR_NEGATIVE_SEEK:
      return EINVAL;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
    case ERROR_NO_SYSTEM_RESOURCES:
      return ENOMEM;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_OPERATION_ABORTED:
      return ECANCELED;
    case ERROR_NOT_READY:
    case ERROR_DEV_NOT_EXIST:
    case ERROR_DEVICE_NOT_CONNECTED:
    case ERROR_NO_MEDIA_IN_DRIVE:
      return ENODEV;
    default:
      return EIO;
  }
}

/// The result of a request that failed with `e`, as the engines report it: 0 at the end of the target
/// (ERROR_HANDLE_EOF), else -errno.
inline std::int32_t io_result_from_win32(DWORD e) {
  return e == ERROR_HANDLE_EOF ? 0 : -errno_from_win32(e);
}

}  // namespace usbsat::load
