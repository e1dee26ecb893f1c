#include "topology/model/usb4_arrivals.hpp"

#include <algorithm>

namespace usbsat::topology {
namespace {

bool superspeed_port(const Topology& t, Vertex p) {
  if (t[p].kind != NodeKind::Port) return false;
  const auto s = t[p].as<PortInfo>().hub_speed;
  return s && is_superspeed(*s);
}

/// Behind a device router (a hub chained behind a dock) sysfs links no USB port to the link. Every USB4
/// router carries an internal USB3 hub and a downstream router's USB3 tunnel leaves from one of its
/// downstream ports: the upstream router's hub is the SuperSpeed hub where its own tunnel arrives, and that
/// hub's SuperSpeed ports with a hub attached are paired, in port order, with the upstream router's device
/// routers in route order. Nothing when the counts differ (said in the summary's assumptions). Asked once per
/// device router `up` (index_usb4_arrivals), whose own arrival is known by then: `arrivals` so far.
void chained_arrivals(const Topology& t, Vertex up, Usb4Arrivals& arrivals) {
  const auto grand = parent(t, up);
  if (!grand || t[*grand].kind != NodeKind::Router) return;
  std::vector<Vertex> routers;
  for (Vertex c : children(t, up))
    if (t[c].kind == NodeKind::Router) routers.push_back(c);
  if (routers.empty()) return;
  std::vector<Vertex> candidates;
  for (Vertex p : arrival_ports(t, up, *grand, arrivals)) {
    if (!superspeed_port(t, p)) continue;
    for (Vertex hub : children(t, p)) {
      if (t[hub].kind != NodeKind::Hub) continue;
      for (Vertex q : children(t, hub)) {
        const auto below = children(t, q);
        if (superspeed_port(t, q) &&
            std::any_of(below.begin(), below.end(), [&](Vertex d) { return t[d].kind == NodeKind::Hub; }))
          candidates.push_back(q);
      }
    }
  }
  if (candidates.size() != routers.size()) return;
  std::stable_sort(routers.begin(), routers.end(), [&](Vertex a, Vertex b) {
    return upstream_port(t[a].as<RouterInfo>().address) < upstream_port(t[b].as<RouterInfo>().address);
  });
  for (std::size_t i = 0; i < routers.size(); ++i) arrivals.chained_port[routers[i]] = candidates[i];
}

}  // namespace

/// The upstream router's port number the link leaves from: the farthest hop of the route string.
unsigned upstream_port(const RouterAddress& a) {
  unsigned port = 0;
  for (auto r = a.route; r; r >>= 8) port = static_cast<unsigned>(r & 0xff);
  return port;
}

/// The USB ports of the host xHCI joined to the upstream router's USB4 port `number`, and that port's link.
const Usb4PortInfo* usb4_port(const RouterInfo& r, unsigned number) {
  for (const auto& p : r.usb4_ports)
    if (p.number == number) return &p;
  return nullptr;
}

/// Whether a router is a root (a host router): without one there is no link, and no vertex needs a look.
/// Asked of the routers, not of the roots: the roots list every PCI tree first (TopologyBuilder), and on the
/// 10,000-device machine of tests/bench/scale_bench.py walking them once per drive was 4 % of `export`.
bool any_host_router(const Topology& t) {
  const auto& routers = of_kind(t, NodeKind::Router);
  return std::any_of(routers.begin(), routers.end(), [&](Vertex v) { return !parent(t, v); });
}

/// The USB ports link `up` -> `v`'s USB3 tunnel arrives at: from the host router, the host xHCI's ports on
/// the Type-C connector of the USB4 port the link leaves from; behind a device router, the indexed pairing
/// (chained_arrivals).
std::vector<Vertex> arrival_ports(const Topology& t, Vertex v, Vertex up, const Usb4Arrivals& arrivals) {
  const auto& u = t[up].as<RouterInfo>();
  if (!u.address.is_host()) {
    const auto& chained = arrivals.chained_port;
    if (v < chained.size() && chained[v]) return {*chained[v]};
    return {};
  }
  std::vector<Vertex> out;
  if (const auto* port = usb4_port(u, upstream_port(t[v].as<RouterInfo>().address)))
    for (const auto& p : port->usb_ports)
      if (const auto pv = t.find(p)) out.push_back(*pv);
  return out;
}

Usb4Arrivals index_usb4_arrivals(const Topology& t) {
  Usb4Arrivals out;
  if (!any_host_router(t)) return out;
  out.chained_port.assign(t.size(), std::nullopt);
  out.router_at.assign(t.size(), std::nullopt);
  // Depth-first: a device router's own arrival is known before its routers' pairing needs it.
  for (Vertex up : of_kind(t, NodeKind::Router)) chained_arrivals(t, up, out);
  for (Vertex v : of_kind(t, NodeKind::Router)) {
    const auto up = parent(t, v);
    if (!up || t[*up].kind != NodeKind::Router) continue;
    const bool host = t[*up].as<RouterInfo>().address.is_host();
    for (Vertex p : arrival_ports(t, v, *up, out)) {
      // The host's links arrive at root ports, chained ones at hub ports; the first router in graph order
      // whose tunnel names a port keeps it.
      const auto hub = parent(t, p);
      const bool root_port = hub && t[*hub].kind == NodeKind::RootHub;
      if (root_port == host && !out.router_at[p]) out.router_at[p] = v;
    }
  }
  return out;
}

}  // namespace usbsat::topology
