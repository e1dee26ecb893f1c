#include "load/phases.hpp"

#include <algorithm>

namespace usbsat::load {

std::vector<PhaseTargets> plan_phases(std::size_t n, std::span<const unsigned> levels) {
  std::vector<PhaseTargets> out;
  auto add = [&out](PhaseTargets p) {
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  if (levels.empty()) {
    PhaseTargets all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    add(std::move(all));
    return out;
  }
  for (const unsigned k : levels) {
    if (k == 0) continue;
    if (k == 1) {
      for (std::size_t i = 0; i < n; ++i) add({i});
      continue;
    }
    PhaseTargets first;
    for (std::size_t i = 0; i < std::min<std::size_t>(k, n); ++i) first.push_back(i);
    add(std::move(first));
  }
  return out;
}

}  // namespace usbsat::load

namespace usbsat::load {

std::optional<std::string> check_levels(std::span<const unsigned> levels) {
  if (std::find(levels.begin(), levels.end(), 0u) == levels.end()) return std::nullopt;
  return "--concurrency 0 runs nothing: each level is a number of targets running at once, 1 or more "
         "(e.g. 1,2,4)";
}

}  // namespace usbsat::load
