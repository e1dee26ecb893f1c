// The terminal on Windows. probe_tty(): a terminal is a console handle (GetConsoleMode succeeds); _isatty()
// would also say yes for NUL and other character devices. The width is the console window's
// (GetConsoleScreenBufferInfo). A console that accepts ENABLE_VIRTUAL_TERMINAL_PROCESSING (Windows 10 and
// later) interprets colours and carriage-return overprinting as a Linux terminal does, and Windows sets no
// TERM: that is the vt_console fact.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include "src/cli/terminal.hpp"

namespace usbsat::cli {

void setup_standard_streams() {
  ::_setmode(1, _O_BINARY);
  ::_setmode(2, _O_BINARY);
  ::SetConsoleOutputCP(CP_UTF8);
}

TtyProbe probe_tty(int fd) {
  TtyProbe p;
  const auto h = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  DWORD mode = 0;
  if (h == INVALID_HANDLE_VALUE || h == nullptr || !::GetConsoleMode(h, &mode)) return p;
  p.is_tty = true;
  p.vt_console = (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0 ||
                 ::SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
  CONSOLE_SCREEN_BUFFER_INFO info{};
  if (::GetConsoleScreenBufferInfo(h, &info) && info.srWindow.Right >= info.srWindow.Left)
    p.columns = static_cast<std::size_t>(info.srWindow.Right - info.srWindow.Left + 1);
  return p;
}

}  // namespace usbsat::cli
