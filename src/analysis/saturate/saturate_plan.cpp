#include "src/analysis/saturate/saturate_plan.hpp"

#include <algorithm>
#include <set>

#include "src/analysis/common/usb_drives.hpp"
#include "topology/base/text.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::saturate {
namespace {

/// Storage protocol of block device `v`: the storage interface above it.
topology::StorageProtocol protocol_of(const topology::Topology& t, topology::Vertex v) {
  for (auto a : topology::ancestors(t, v))
    if (const auto* itf = t[a].get_if<topology::InterfaceInfo>()) return itf->storage;
  return topology::StorageProtocol::None;
}

}  // namespace

unsigned protocol_queue_depth(topology::StorageProtocol p) {
  return p == topology::StorageProtocol::Bot ? kBotQueueDepth : kQueuedQueueDepth;
}

std::vector<unsigned> phase_levels(std::size_t n) {
  std::vector<unsigned> out{1};
  for (std::size_t k : {std::size_t{2}, std::size_t{4}, n})
    if (k >= 2 && k <= n && std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(static_cast<unsigned>(k));
  return out;
}

SaturatePlan plan_declared(std::span<const common::GroupSpec> specs, std::optional<unsigned> qd) {
  SaturatePlan plan;
  for (const auto& s : specs) {
    PlannedGroup g;
    g.name = s.name;
    g.node_kind = "declared";
    g.node_id = s.name;
    g.node_label = "group " + s.name;
    g.declared_capacity = s.capacity;
    for (const auto& p : s.paths)
      g.drives.push_back(
          {std::string(topology::strip_dev_prefix(p)), p, "", topology::StorageProtocol::None});
    g.qd = qd.value_or(kQueuedQueueDepth);
    g.qd_reason = qd ? "--qd" : "protocol unknown: deep queue";
    g.levels = phase_levels(g.drives.size());
    plan.groups.push_back(std::move(g));
  }
  return plan;
}

SaturatePlan plan_topology(const topology::Topology& t, std::span<const std::string> only,
                           std::optional<unsigned> qd, const topology::CapacityModel& m) {
  SaturatePlan plan;
  std::vector<topology::Vertex> blocks;
  for (const auto& d : common::usb_drives(t)) {
    const bool wanted = only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& o) {
                          return o == d.name || o == d.devnode;
                        });
    if (!wanted) continue;
    if (d.has_media)
      blocks.push_back(d.block);
    else
      plan.notes.push_back(d.name + ": no medium (an empty card-reader slot), not measured");
  }
  for (auto& g : model::shared_node_groups(t, blocks, m)) {
    PlannedGroup p;
    p.name = g.name;
    p.node_kind = std::string(topology::to_string(g.kind));
    p.node_id = g.name;
    p.node_label = topology::describe_node(t, g.node);
    bool any_queued = false, all_bot = true;
    std::set<std::string> protocols;
    for (const auto& dev : g.drives) {
      const auto v = t.find_by_name(dev);
      PlannedDrive d{dev, "/dev/" + dev, "", topology::StorageProtocol::None};
      if (v) {
        d.path = t[*v].as<topology::BlockInfo>().devnode;
        d.where = topology::drive_where(t, *v);
        d.protocol = protocol_of(t, *v);
      }
      protocols.insert(std::string(topology::to_string(d.protocol)));
      any_queued |= d.protocol != topology::StorageProtocol::Bot;
      all_bot &= d.protocol == topology::StorageProtocol::Bot;
      p.drives.push_back(std::move(d));
    }
    if (qd) {
      p.qd = *qd;
      p.qd_reason = "--qd";
    } else {
      p.qd = any_queued ? kQueuedQueueDepth : kBotQueueDepth;
      p.qd_reason = all_bot                                              ? "BOT: one command at a time"
                    : protocols.size() == 1 && protocols.contains("uas") ? "UAS: queued commands"
                    : protocols.contains("bot") ? "mixed BOT and queued drives: the deeper queue for all"
                                                : "protocol unknown: deep queue";
    }
    p.levels = phase_levels(p.drives.size());
    p.same_drives_as = g.same_drives_as;
    p.topology_group = std::move(g);
    plan.groups.push_back(std::move(p));
  }
  if (blocks.size() >= 2 && plan.groups.empty())
    plan.notes.push_back("no two of the USB drives share a hub, bus, controller or PCIe link");
  return plan;
}

}  // namespace usbsat::analysis::saturate
