#pragma once
/// Single-line overprinting status output (ninja's LinePrinter), made pure: the printer returns the bytes to
/// write and src/ writes them. Whether the terminal is smart, and its width, src/cli/terminal decides and
/// passes in: nothing below src/ calls isatty or getenv.
#include <cstddef>
#include <string>
#include <string_view>

namespace usbsat::report {

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

}  // namespace usbsat::report
