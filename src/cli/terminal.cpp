#include "src/cli/terminal.hpp"

#include <charconv>
#include <cstdlib>

namespace usbsat::cli {
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::optional<std::string>(v) : std::nullopt;
}

/// A positive decimal number of columns, else 0.
std::size_t parse_columns(const std::optional<std::string>& s) {
  if (!s || s->empty()) return 0;
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), n);
  return ec == std::errc() && end == s->data() + s->size() ? n : 0;
}

}  // namespace

TerminalFacts probe_terminal(int fd) {
  const TtyProbe tty = probe_tty(fd);
  TerminalFacts f;
  f.is_tty = tty.is_tty;
  f.vt_console = tty.vt_console;
  f.term = env("TERM");
  f.no_color = env("NO_COLOR");
  f.columns_env = env("COLUMNS");
  f.winsize_columns = tty.columns;
  return f;
}

Terminal decide_terminal(const TerminalFacts& f, bool no_color_flag) {
  Terminal t;
  const bool term_ok = f.term && !f.term->empty() && *f.term != "dumb";
  t.smart = f.is_tty && (term_ok || (f.vt_console && !f.term));
  t.color = t.smart && !no_color_flag && (!f.no_color || f.no_color->empty());
  if (f.is_tty) t.width = f.winsize_columns > 0 ? f.winsize_columns : parse_columns(f.columns_env);
  return t;
}

Terminal terminal_for(int fd, bool no_color_flag) {
  return decide_terminal(probe_terminal(fd), no_color_flag);
}

}  // namespace usbsat::cli
