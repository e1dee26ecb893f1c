#include "report/style.hpp"

namespace usbsat::report {
namespace {

std::string_view sgr(Color c) {
  switch (c) {
    case Color::Problem:
      return "\x1b[1;31m";
    case Color::Warning:
      return "\x1b[33m";
    case Color::Info:
      return "\x1b[36m";
    case Color::Good:
      return "\x1b[32m";
  }
  return "";
}

}  // namespace

std::string paint(std::string_view text, Color c, const TextStyle& style) {
  if (!style.color || text.empty()) return std::string(text);
  std::string out(sgr(c));
  out += text;
  out += "\x1b[0m";
  return out;
}

}  // namespace usbsat::report
