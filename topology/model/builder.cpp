#include "topology/model/builder.hpp"

#include <algorithm>
#include <functional>

#include "topology/model/usb4_arrivals.hpp"

namespace usbsat::topology {
namespace {

std::string_view basename(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// PCI addresses ("0000:00:1d.0") are fixed-width hex: their lexical order is the bus order.
bool is_bdf(std::string_view s) {
  return s.size() == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.';
}

bool name_less(std::string_view a, std::string_view b) {
  if (is_bdf(a) && is_bdf(b)) return a < b;
  return natural_less(a, b);
}

}  // namespace

bool TopologyBuilder::add(Node node, std::optional<std::string> parent_syspath, Link link) {
  const std::string key = node.syspath();
  if (index_.contains(key)) return false;
  index_.emplace(key, pending_.size());
  pending_.push_back(Pending{std::move(node), std::move(parent_syspath), link});
  return true;
}

bool TopologyBuilder::contains(std::string_view syspath) const {
  return index_.find(syspath) != index_.end();
}

Node* TopologyBuilder::get(std::string_view syspath) {
  auto it = index_.find(syspath);
  return it == index_.end() ? nullptr : &pending_[it->second].node;
}

TopologyBuilder::Forest TopologyBuilder::forest(std::vector<Diagnostic>& diagnostics) const {
  const std::size_t n = pending_.size();
  Forest f{std::vector<std::vector<std::size_t>>(n), {}};
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = pending_[i];
    if (p.parent) {
      if (auto it = index_.find(*p.parent); it != index_.end() && it->second != i) {
        f.kids[it->second].push_back(i);
        continue;
      }
      diagnostics.push_back(
          {Severity::Warning, p.node.syspath(), "parent " + *p.parent + " was not scanned; shown as a root"});
    }
    f.roots.push_back(i);
  }

  auto by_name = [&](std::size_t a, std::size_t b) {
    return name_less(basename(pending_[a].node.syspath()), basename(pending_[b].node.syspath()));
  };
  for (auto& k : f.kids) std::sort(k.begin(), k.end(), by_name);
  // USB / PCI trees first, then USB4/Thunderbolt host routers, stand-alone disks last.
  auto rank = [&](std::size_t i) {
    const auto k = pending_[i].node.kind;
    return k == NodeKind::Block ? 2 : k == NodeKind::Router ? 1 : 0;
  };
  std::sort(f.roots.begin(), f.roots.end(), [&](std::size_t a, std::size_t b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return name_less(basename(pending_[a].node.syspath()), basename(pending_[b].node.syspath()));
  });
  return f;
}

void TopologyBuilder::place(Topology& t, const Forest& f) {
  // Lay out vertices depth-first so vertex numbers, and with them every traversal, are deterministic.
  // All vertices are allocated at once (no reallocation of the vertex vector while placing), then filled.
  t.g_ = Graph(pending_.size());
  Vertex next = 0;
  std::function<void(std::size_t, std::optional<Vertex>)> place_below = [&](std::size_t i,
                                                                            std::optional<Vertex> up) {
    auto& p = pending_[i];
    const Vertex v = next++;
    t.g_[v] = std::move(p.node);
    if (up)
      boost::add_edge(*up, v, p.link, t.g_);
    else
      t.roots_.push_back(v);
    for (auto k : f.kids[i]) place_below(k, v);
  };
  for (auto r : f.roots) place_below(r, std::nullopt);
  // Nodes unreachable from a root (a parent cycle) are not placed: drop their unused, edge-less slots.
  while (boost::num_vertices(t.g_) > next) boost::remove_vertex(boost::num_vertices(t.g_) - 1, t.g_);

  t.by_syspath_.reserve(boost::num_vertices(t.g_));
  t.by_name_.reserve(boost::num_vertices(t.g_));
  for (Vertex v = 0; v < boost::num_vertices(t.g_); ++v) {
    const Node& node = t.g_[v];
    t.by_syspath_.emplace(node.syspath(), v);
    if (auto name = node_name(node); !name.empty()) t.by_name_.emplace(std::string(name), v);
  }
  t.index_vertices();
  t.controllers_ = of_kind(t, NodeKind::Controller);
}

/// Ports learn the speed of the bus they sit on from their hub.
void TopologyBuilder::learn_port_speeds(Topology& t) {
  for (Vertex v : of_kind(t, NodeKind::Port)) {
    auto& port = t.g_[v].as<PortInfo>();
    if (port.hub_speed) continue;
    if (auto hub = parent(t, v); hub)
      if (const auto* dev = t.g_[*hub].get_if<UsbDeviceInfo>()) port.hub_speed = dev->speed;
  }
}

/// Connectors: a port and its peer form one physical connector.
void TopologyBuilder::pair_connectors(Topology& t) {
  std::vector<bool> used(boost::num_vertices(t.g_), false);
  auto is_usb3 = [&](Vertex port) { return t.g_[port].as<PortInfo>().usb3_side(); };
  for (Vertex v : of_kind(t, NodeKind::Port)) {
    if (used[v]) continue;
    used[v] = true;
    Connector c;
    std::optional<Vertex> other;
    if (const auto& peer = t.g_[v].as<PortInfo>().peer) {
      if (auto pv = t.find(*peer); pv && t.g_[*pv].kind == NodeKind::Port && !used[*pv]) {
        other = *pv;
        used[*pv] = true;
      }
    }
    (is_usb3(v) ? c.usb3_port : c.usb2_port) = v;
    if (other) {
      auto& slot = is_usb3(*other) ? c.usb3_port : c.usb2_port;
      if (slot)  // both halves claim the same bus kind: keep them as two lone connectors
        used[*other] = false;
      else
        slot = *other;
    }
    const Vertex main_side = c.usb2_port ? *c.usb2_port : *c.usb3_port;
    c.id = t.g_[main_side].as<PortInfo>().name;
    c.hub = parent(t, main_side).value_or(main_side);
    c.controller = controller_of(t, main_side).value_or(main_side);
    t.connectors_.push_back(std::move(c));
  }
  t.index_connectors();
}

/// Hub halves: the devices on the two sides of one connector are the USB2 and USB3 halves of one hub.
void TopologyBuilder::pair_hub_halves(Topology& t) {
  for (const auto& c : t.connectors_) {
    if (!c.usb2_port || !c.usb3_port) continue;
    auto a = children(t, *c.usb2_port), b = children(t, *c.usb3_port);
    if (a.empty() || b.empty()) continue;
    if (t.g_[a.front()].kind != NodeKind::Hub || t.g_[b.front()].kind != NodeKind::Hub) continue;
    t.g_[a.front()].as<UsbDeviceInfo>().hub_peer = t.g_[b.front()].syspath();
    t.g_[b.front()].as<UsbDeviceInfo>().hub_peer = t.g_[a.front()].syspath();
  }
}

Topology TopologyBuilder::finish(std::vector<Diagnostic>& diagnostics) && {
  Topology t;
  place(t, forest(diagnostics));
  learn_port_speeds(t);
  pair_connectors(t);
  pair_hub_halves(t);
  t.usb4_arrivals_ = index_usb4_arrivals(t);
  return t;
}

}  // namespace usbsat::topology
