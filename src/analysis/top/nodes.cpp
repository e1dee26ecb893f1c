#include "src/analysis/top/nodes.hpp"

#include <algorithm>
#include <map>

#include "src/analysis/common/usb_drives.hpp"
#include "topology/base/text.hpp"

namespace usbsat::analysis::top {

std::vector<TopNode> topology_nodes(const topology::Topology& t, const topology::CapacityModel& m) {
  std::vector<TopNode> nodes;
  std::map<std::string, std::size_t> index;
  for (const auto& d : common::usb_drives_with_media(t)) {
    for (const auto& r : topology::path_resources(t, d.block, m)) {
      auto [it, fresh] = index.try_emplace(r.id, nodes.size());
      if (fresh) nodes.push_back({r.id, std::string(topology::to_string(r.kind)), r.label, {}, r.capacity});
      auto& devs = nodes[it->second].devices;
      if (std::find(devs.begin(), devs.end(), d.name) == devs.end()) devs.push_back(d.name);
    }
  }
  return nodes;
}

std::vector<TopNode> group_nodes(std::span<const common::GroupSpec> groups) {
  std::vector<TopNode> nodes;
  for (const auto& g : groups) {
    TopNode n{"group:" + g.name,
              std::string(topology::to_string(topology::ResourceKind::Declared)),
              "group " + g.name,
              {},
              g.capacity};
    for (const auto& p : g.paths) n.devices.emplace_back(topology::strip_dev_prefix(p));
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace usbsat::analysis::top
