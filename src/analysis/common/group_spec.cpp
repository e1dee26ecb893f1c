#include "src/analysis/common/group_spec.hpp"

#include <algorithm>

#include "topology/base/text.hpp"

namespace usbsat::analysis::common {
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

std::optional<GroupSpec> parse_group_spec(std::string_view s, std::string* error) {
  auto bad = [&](std::string why) -> std::optional<GroupSpec> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  const auto eq = s.find('=');
  GroupSpec g;
  if (eq != std::string_view::npos) g.name = std::string(topology::trim(s.substr(0, eq)));
  if (g.name.empty()) return bad("a group is NAME=/dev/a,/dev/b,...[@CAP]: the NAME= is missing");
  std::string_view rest = s.substr(eq + 1);
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    const auto cap = rest.substr(at + 1);
    g.capacity = topology::parse_rate(cap);
    const double bps = g.capacity ? static_cast<double>(g.capacity->bytes_per_s) : 0;
    if (bps < kMinGroupCapacity || bps > kMaxGroupCapacity)
      return bad("capacity '" + std::string(cap) +
                 "' is not a rate from 1K to 1000G bytes/s (e.g. 40M or 400MB/s; MB = 10^6 B)");
    rest = rest.substr(0, at);
  }
  for (auto p : split(rest, ',')) {
    p = topology::trim(p);
    if (p.empty()) return bad("an empty drive path in the list");
    if (p.find('@') != std::string_view::npos)  // "/dev/y@40M@50M": two capacities, or an '@' in a path
      return bad("'" + std::string(p) + "': a drive path cannot hold '@'; give one capacity, at the end (" +
                 "NAME=/dev/a,/dev/b@40M)");
    if (std::find(g.paths.begin(), g.paths.end(), p) != g.paths.end())
      return bad("'" + std::string(p) + "' is named twice");
    g.paths.emplace_back(p);
  }
  if (g.paths.size() < 2) return bad("a group needs at least two drives (one drive shares nothing)");
  return g;
}

std::optional<std::string> check_group_specs(std::span<const GroupSpec> specs) {
  for (std::size_t j = 1; j < specs.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (specs[i].name == specs[j].name)
        return "two groups are named '" + specs[j].name + "': give each its own name";
  return std::nullopt;
}

std::optional<std::vector<GroupSpec>> parse_group_specs(std::span<const std::string> values,
                                                        std::string* error) {
  std::vector<GroupSpec> specs;
  for (const auto& v : values) {
    std::string why;
    auto s = parse_group_spec(v, &why);
    if (!s) {
      if (error) *error = "bad --group '" + v + "': " + why;
      return std::nullopt;
    }
    specs.push_back(std::move(*s));
  }
  if (auto e = check_group_specs(specs)) {
    if (error) *error = std::move(*e);
    return std::nullopt;
  }
  return specs;
}

}  // namespace usbsat::analysis::common
