#include "report/line_printer.hpp"

#include <cstring>

namespace usbsat::report {

bool is_smart_terminal(bool is_tty, const char* term) {
  return is_tty && term != nullptr && *term != '\0' && std::strcmp(term, "dumb") != 0;
}

bool use_color(bool smart, const char* no_color_env, bool no_color_flag) {
  return smart && no_color_env == nullptr && !no_color_flag;
}

std::string elide_middle(std::string_view s, std::size_t width) {
  constexpr std::string_view kDots = "...";
  if (width == 0 || s.size() <= width) return std::string(s);
  if (width <= kDots.size()) return std::string(kDots.substr(0, width));
  const std::size_t keep = width - kDots.size();
  const std::size_t left = keep / 2 + keep % 2;
  return std::string(s.substr(0, left)) + std::string(kDots) + std::string(s.substr(s.size() - keep / 2));
}

std::string LinePrinter::status(std::string_view line) {
  if (!smart_) return std::string(line) + "\n";
  have_blank_line_ = false;
  // Carriage return, the line, then "erase to end of line" so a shorter line leaves no remnants.
  return "\r" + elide_middle(line, width_ ? width_ - 1 : 0) + "\x1b[K";
}

std::string LinePrinter::finish() {
  if (have_blank_line_) return {};
  have_blank_line_ = true;
  return "\n";
}

}  // namespace usbsat::report
