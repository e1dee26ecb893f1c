#include "report/html_escape.hpp"

#include "topology/words/escape.hpp"

namespace usbsat::report {

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : topology::escape_unprintable(s)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace usbsat::report
