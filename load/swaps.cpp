#include "load/swaps.hpp"

#include "topology/base/mountinfo.hpp"

namespace usbsat::load {

std::vector<std::string> parse_swaps(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    const auto end = line.find_first_of(" \t");
    const std::string_view name = line.substr(0, end);
    if (name.empty() || name == "Filename") continue;
    out.push_back(topology::unescape_octal(name));
  }
  return out;
}

}  // namespace usbsat::load
