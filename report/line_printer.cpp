#include "report/line_printer.hpp"

#include "report/table.hpp"

namespace usbsat::report {

std::string LinePrinter::status(std::string_view line) {
  if (!smart_) return std::string(line) + "\n";
  have_blank_line_ = false;
  // Carriage return, the line, then "erase to end of line" so a shorter line leaves no remnants.
  return "\r" + (width_ > 1 ? elide_middle(line, width_ - 1) : std::string(line)) + "\x1b[K";
}

std::string LinePrinter::finish() {
  if (have_blank_line_) return {};
  have_blank_line_ = true;
  return "\n";
}

}  // namespace usbsat::report
