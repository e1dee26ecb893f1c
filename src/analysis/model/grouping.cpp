#include "src/analysis/model/grouping.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace usbsat::analysis::model {

using topology::Resource;
using topology::ResourceKind;
using topology::Vertex;

std::vector<Resource> common_resources(const topology::Topology& t, std::span<const Vertex> blocks,
                                       const topology::CapacityModel& m) {
  if (blocks.empty()) return {};
  std::vector<Resource> out = topology::path_resources(t, blocks.front(), m);
  for (std::size_t i = 1; i < blocks.size(); ++i) {
    std::set<std::string> ids;
    for (const auto& r : topology::path_resources(t, blocks[i], m)) ids.insert(r.id);
    std::erase_if(out, [&](const Resource& r) { return !ids.contains(r.id); });
  }
  return out;
}

std::optional<Vertex> lowest_common_ancestor(const topology::Topology& t, std::span<const Vertex> blocks) {
  if (blocks.empty()) return std::nullopt;
  // Ancestors of the first drive, nearest first; the first one that is an ancestor of every other drive.
  std::vector<Vertex> chain{blocks.front()};
  for (auto a : topology::ancestors(t, blocks.front())) chain.push_back(a);
  for (Vertex candidate : chain) {
    bool all = true;
    for (std::size_t i = 1; i < blocks.size() && all; ++i) {
      if (blocks[i] == candidate) continue;
      const auto up = topology::ancestors(t, blocks[i]);
      all = std::find(up.begin(), up.end(), candidate) != up.end();
    }
    if (all) return candidate;
  }
  return std::nullopt;
}

std::vector<DriveGroup> shared_node_groups(const topology::Topology& t, std::span<const Vertex> blocks,
                                           const topology::CapacityModel& m) {
  // Shared nodes are the vertices owning a resource other than a drive link.
  std::map<Vertex, std::vector<std::size_t>> below;  // node -> indices of drives below it
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    std::set<Vertex> nodes;
    for (const auto& r : topology::path_resources(t, blocks[i], m))
      if (r.kind != ResourceKind::DriveLink && r.vertex) nodes.insert(*r.vertex);
    for (Vertex v : nodes) below[v].push_back(i);
  }
  // Collapse nodes with identical drive sets into the deepest one: vertices are numbered depth-first, so a
  // descendant always has a larger number than its ancestors.
  std::map<std::vector<std::size_t>, std::vector<Vertex>> by_set;
  for (const auto& [v, drives] : below)
    if (drives.size() >= 2) by_set[drives].push_back(v);

  std::vector<DriveGroup> out;
  for (const auto& [drives, nodes] : by_set) {
    const Vertex nearest = *std::max_element(nodes.begin(), nodes.end());
    DriveGroup g;
    g.node = nearest;
    g.name = topology::node_id(t, nearest);
    g.kind = t[nearest].kind;
    std::vector<Vertex> vs;
    for (auto i : drives) {
      g.drives.push_back(t[blocks[i]].as<topology::BlockInfo>().name);
      vs.push_back(blocks[i]);
    }
    g.shared = common_resources(t, vs, m);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
      if (*it != nearest) g.same_drives_as.push_back(topology::node_id(t, *it));
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const DriveGroup& a, const DriveGroup& b) { return a.node < b.node; });
  return out;
}

}  // namespace usbsat::analysis::model
