#pragma once
/// The one place usbsat looks at the terminal: whether an output stream is a TTY, $TERM, $NO_COLOR, the
/// width (TIOCGWINSZ, else $COLUMNS) and --no-color. probe_terminal() gathers the facts; decide_terminal() is
/// the pure decision, table-tested; renderers get the result as a report::TextStyle (ninja's LinePrinter
/// smart-terminal rule, https://no-color.org).
#include <cstddef>
#include <optional>
#include <string>

#include "report/style.hpp"

namespace usbsat::cli {

/// The C file descriptors of stdout and stderr (kStdoutFd and kStderrFd, which Windows lacks).
inline constexpr int kStdoutFd = 1;
inline constexpr int kStderrFd = 2;

/// What the process can observe about one output stream and the environment.
struct TerminalFacts {
  bool is_tty = false;                     ///< isatty(fd)
  bool vt_console = false;                 ///< a console that interprets escape sequences without a $TERM
                                           ///< (Windows 10+, virtual-terminal processing switched on)
  std::optional<std::string> term;         ///< $TERM
  std::optional<std::string> no_color;     ///< $NO_COLOR
  std::size_t winsize_columns = 0;         ///< TIOCGWINSZ ws_col on fd; 0 when the ioctl fails or says 0
  std::optional<std::string> columns_env;  ///< $COLUMNS
};

/// How to write to that stream.
struct Terminal {
  bool smart =
      false;  ///< a TTY whose TERM is set and not "dumb", or a VT console: may overprint a status line
  bool color = false;     ///< smart, no --no-color, no non-empty NO_COLOR
  std::size_t width = 0;  ///< columns to fit (a TTY only: winsize, else a positive $COLUMNS); 0 = no limit

  report::TextStyle style() const { return {color, width}; }
};

/// The decision, pure:
///  - smart  = is_tty && (TERM set, non-empty and not "dumb", or a VT console whose TERM is unset: Windows
///  sets
///             no TERM, but a console with virtual-terminal processing understands colours and overprinting);
///  - color  = smart && !no_color_flag && NO_COLOR unset or empty (no-color.org: "present and not an empty
///             string, regardless of its value");
///  - width  = is_tty ? (winsize_columns, else $COLUMNS when it is a positive number, else 0) : 0 — output to
///             a pipe or file is never fitted to a width.
Terminal decide_terminal(const TerminalFacts& facts, bool no_color_flag);

/// What the operating system says about `fd`: whether it is a terminal and, if so, its width in columns (0 =
/// unknown). The only platform-specific part (terminal_posix.cpp: isatty + TIOCGWINSZ; win32/terminal.cpp:
/// a console handle, GetConsoleMode + GetConsoleScreenBufferInfo; a pipe, file or NUL is no terminal).
struct TtyProbe {
  bool is_tty = false;
  std::size_t columns = 0;
  bool vt_console = false;  ///< Windows: virtual-terminal processing is (now) on for this console
};
TtyProbe probe_tty(int fd);

/// Once, first thing in main(): stdout and stderr carry usbsat's bytes unchanged. POSIX: nothing to do.
/// Windows: binary mode (the C runtime's text mode would turn every "\n" into "\r\n", so `usbsat.exe ...
/// --json` would differ from the Linux build's output) and a UTF-8 console code page ("µs", "×", box
/// drawing).
void setup_standard_streams();

/// The facts for file descriptor `fd` (kStdoutFd, kStderrFd) in this process.
TerminalFacts probe_terminal(int fd);

/// decide_terminal(probe_terminal(fd), no_color_flag).
Terminal terminal_for(int fd, bool no_color_flag);

}  // namespace usbsat::cli
