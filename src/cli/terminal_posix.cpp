// probe_tty() on POSIX: isatty() and the TIOCGWINSZ window size.
#include <sys/ioctl.h>
#include <unistd.h>

#include "src/cli/terminal.hpp"

namespace usbsat::cli {

void setup_standard_streams() {}

TtyProbe probe_tty(int fd) {
  TtyProbe p;
  p.is_tty = ::isatty(fd) == 1;
  winsize ws{};
  if (p.is_tty && ::ioctl(fd, TIOCGWINSZ, &ws) == 0) p.columns = ws.ws_col;
  return p;
}

}  // namespace usbsat::cli
