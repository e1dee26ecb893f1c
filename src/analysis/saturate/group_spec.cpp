#include "src/analysis/saturate/group_spec.hpp"

#include <algorithm>

#include "topology/text.hpp"

namespace usbsat::analysis::saturate {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto p = s.find(sep);
    out.push_back(s.substr(0, p));
    if (p == std::string_view::npos) return out;
    s.remove_prefix(p + 1);
  }
}

}  // namespace

std::optional<GroupSpec> parse_group_spec(std::string_view s) {
  const auto eq = s.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  GroupSpec g;
  g.name = std::string(topology::trim(s.substr(0, eq)));
  std::string_view rest = s.substr(eq + 1);
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    g.capacity = topology::parse_rate(rest.substr(at + 1));
    if (!g.capacity) return std::nullopt;
    rest = rest.substr(0, at);
  }
  for (auto p : split(rest, ',')) {
    p = topology::trim(p);
    if (p.empty()) return std::nullopt;
    if (std::find(g.paths.begin(), g.paths.end(), p) != g.paths.end()) return std::nullopt;
    g.paths.emplace_back(p);
  }
  if (g.name.empty() || g.paths.size() < 2) return std::nullopt;
  return g;
}

}  // namespace usbsat::analysis::saturate
