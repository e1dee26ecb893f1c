#pragma once
/// Single-line overprinting status output (ninja's LinePrinter), made pure: the printer returns the bytes to
/// write and src/ writes them. Whether the terminal is smart is decided from facts src/ passes in (isatty,
/// $TERM, $NO_COLOR): nothing below src/ calls isatty or getenv.
#include <cstddef>
#include <string>
#include <string_view>

namespace usbsat::report {

/// A terminal is smart when stdout/stderr is a TTY and TERM is set and not "dumb" (ninja).
bool is_smart_terminal(bool is_tty, const char* term);
/// Colour only on a smart terminal, and never when NO_COLOR is set (any value, https://no-color.org) or
/// --no-color was given.
bool use_color(bool smart, const char* no_color_env, bool no_color_flag);

class LinePrinter {
 public:
  /// `width` is the terminal width used to elide long status lines (0 = unknown, no eliding).
  LinePrinter(bool smart, std::size_t width) : smart_(smart), width_(width) {}
  bool smart() const { return smart_; }
  /// Bytes that replace the current status line with `line` (smart) or print it on its own line (dumb).
  std::string status(std::string_view line);
  /// Bytes that end an overprinted status line so normal output can follow ("" when none is showing).
  std::string finish();

 private:
  bool smart_;
  std::size_t width_;
  bool have_blank_line_ = true;
};

/// Shorten `s` to `width` columns by replacing its middle with "..." (ninja ElideMiddle).
std::string elide_middle(std::string_view s, std::size_t width);

}  // namespace usbsat::report
