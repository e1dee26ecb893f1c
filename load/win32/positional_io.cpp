#include <io.h>
#include <windows.h>

#include "load/positional_io.hpp"
#include "load/win32/win_error.hpp"

namespace usbsat::load {

std::int32_t transfer_at(int fd, const IoRequest& r) {
  const auto h = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  OVERLAPPED ov{};
  ov.Offset = static_cast<DWORD>(r.offset);
  ov.OffsetHigh = static_cast<DWORD>(r.offset >> 32);
  DWORD n = 0;
  const BOOL ok = r.dir == IoDir::Read ? ::ReadFile(h, r.buffer, r.length, &n, &ov)
                                       : ::WriteFile(h, r.buffer, r.length, &n, &ov);
  if (!ok) {
    DWORD e = ::GetLastError();
    if (e == ERROR_IO_PENDING && ::GetOverlappedResult(h, &ov, &n, TRUE)) return static_cast<std::int32_t>(n);
    if (e == ERROR_IO_PENDING) e = ::GetLastError();
    return io_result_from_win32(e);
  }
  return static_cast<std::int32_t>(n);
}

}  // namespace usbsat::load
