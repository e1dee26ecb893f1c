#include "src/analysis/top/rates.hpp"

#include <algorithm>

namespace usbsat::analysis::top {

Sample make_sample(double t_s, const std::map<std::string, std::optional<std::string>>& stat_texts) {
  Sample s{t_s, {}};
  for (const auto& [dev, text] : stat_texts)
    if (text)
      if (auto io = parse_block_stat(*text)) s.io.emplace(dev, *io);
  return s;
}

std::vector<NodeRate> node_rates(const std::vector<TopNode>& nodes, const Sample& prev, const Sample& cur,
                                 double threshold) {
  const double dt = cur.t_s - prev.t_s;
  const auto delta = [](std::uint64_t a, std::uint64_t b) { return b >= a ? b - a : 0; };
  std::vector<NodeRate> out;
  for (const auto& n : nodes) {
    NodeRate r{n, 0, 0, 0, std::nullopt, false, {}};
    std::uint64_t rd = 0, wr = 0;
    for (const auto& dev : n.devices) {
      const auto a = prev.io.find(dev), b = cur.io.find(dev);
      if (a == prev.io.end() || b == cur.io.end()) {
        r.missing.push_back(dev);
        continue;
      }
      rd += delta(a->second.read_bytes, b->second.read_bytes);
      wr += delta(a->second.write_bytes, b->second.write_bytes);
    }
    if (dt > 0) {
      r.read_mbs = static_cast<double>(rd) / dt / 1e6;
      r.write_mbs = static_cast<double>(wr) / dt / 1e6;
      r.mbs = r.read_mbs + r.write_mbs;
    }
    if (n.capacity && !n.capacity->is_zero()) {
      r.utilisation = r.mbs / n.capacity->mbs();
      r.bottleneck = *r.utilisation >= threshold;
    }
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const NodeRate& a, const NodeRate& b) {
    if (a.utilisation.has_value() != b.utilisation.has_value()) return a.utilisation.has_value();
    if (a.utilisation && *a.utilisation != *b.utilisation) return *a.utilisation > *b.utilisation;
    if (a.mbs != b.mbs) return a.mbs > b.mbs;
    return a.node.id < b.node.id;
  });
  return out;
}

}  // namespace usbsat::analysis::top
