#include "topology/usb4_tunnels.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "topology/describe.hpp"

namespace usbsat::topology {
namespace {

/// The smaller of two optional figures (rx and tx); the one known when only one is.
std::optional<unsigned> smaller(std::optional<unsigned> a, std::optional<unsigned> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

/// Thunderbolt 3 and USB4 v1 routers (generation >= 3) train 20 Gb/s lanes, Thunderbolt 1 and 2 10 Gb/s;
/// every generation has two lanes (sysfs-bus-thunderbolt, rx_lanes: "1 or 2").
std::optional<Usb4Capability> capability(const RouterInfo& a, const RouterInfo& b) {
  if (!a.generation || !b.generation) return std::nullopt;
  const unsigned gen = std::min(*a.generation, *b.generation);
  return Usb4Capability{gen >= 3 ? 20u : 10u, 2u};
}

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

/// The USB3 adapter's maximum: the speed of the SuperSpeed root hub the tunnel arrives at.
std::optional<Bandwidth> adapter_max(const Topology& t, const std::vector<Vertex>& ports) {
  std::optional<Bandwidth> best;
  for (Vertex p : ports)
    if (const auto s = t[p].as<PortInfo>().hub_speed; s && is_superspeed(*s))
      best = std::max(best.value_or(Bandwidth::zero()), Bandwidth::from_mbit(nominal_mbps(*s)));
  return best;
}

/// Whether a router is a root (a host router): without one there is no link, and no vertex needs a look.
/// Asked of the routers, not of the roots: the roots list every PCI tree first (TopologyBuilder), and on the
/// 10,000-device machine of tests/bench/scale_bench.py walking them once per drive was 4 % of `export`.
bool any_host_router(const Topology& t) {
  const auto& routers = of_kind(t, NodeKind::Router);
  return std::any_of(routers.begin(), routers.end(), [&](Vertex v) { return !parent(t, v); });
}

/// The DisplayPort tunnels of the link: one per connected DRM connector on the Type-C connector its USB4
/// port serves, each taking dp_tunnel_assumed(); without any, none are assumed (and said).
void displays(const Usb4PortInfo& port, Usb4LinkSummary& s) {
  if (port.displays.empty()) {
    s.assumptions.push_back(
        "DisplayPort tunnels are not read (no DRM link information): none assumed, the USB3 tunnel may get "
        "less");
    return;
  }
  s.display_connectors = port.displays;
  for (std::size_t i = 0; i < port.displays.size(); ++i) s.displays = s.displays + dp_tunnel_assumed();
  s.assumptions.push_back(fmt::format(
      "DisplayPort link rate and lanes are not in sysfs: each display's tunnel assumed HBR2 x 4 ({}), "
      "what the connection manager reserves before bandwidth allocation mode",
      gbit_text(dp_tunnel_assumed())));
}

Usb4LinkSummary summarize(const Topology& t, Vertex v, Vertex up) {
  const auto& r = t[v].as<RouterInfo>();
  const auto& u = t[up].as<RouterInfo>();
  Usb4LinkSummary s{v,
                    up,
                    r.name,
                    "",
                    "",
                    smaller(r.rx_speed_gbps, r.tx_speed_gbps),
                    smaller(r.rx_lanes, r.tx_lanes),
                    capability(r, u),
                    std::nullopt};
  const auto* port = usb4_port(u, upstream_port(r.address));
  if (port && port->link && *port->link != Usb4LinkType::None) s.type = std::string(to_string(*port->link));
  const std::string product = node_product(t, v);
  s.label = fmt::format("{} link {}{}", s.type == "tbt" ? "Thunderbolt" : "USB4", r.name,
                        product.empty() ? "" : " (" + product + ")");
  if (s.lane_gbps && s.lanes) s.usable = usb4_link_usable(*s.lane_gbps, *s.lanes);
  if (port)
    for (const auto& p : port->usb_ports)
      if (const auto pv = t.find(p)) s.usb_ports.push_back(*pv);
  if (port) displays(*port, s);
  if (s.usb_ports.empty()) {
    s.assumptions.push_back(
        "no USB port of the host shares a Type-C connector with this link: its USB3 "
        "tunnel's drives are not known");
  }
  auto adapter = adapter_max(t, s.usb_ports);
  if (!adapter) {
    adapter = Bandwidth::from_mbit(10000);
    s.assumptions.push_back("USB3 adapter assumed 10 Gb/s (USB 3.2 Gen 2)");
  }
  if (s.usable) s.usb3_tunnel = usb3_tunnel_capacity(*adapter, *s.usable, s.displays);
  return s;
}

}  // namespace

bool Usb4LinkSummary::below_capability() const {
  if (!capable || !lane_gbps || !lanes) return false;
  return *lanes < capable->lanes || *lane_gbps < capable->lane_gbps;
}

std::vector<Usb4LinkSummary> usb4_links(const Topology& t) {
  std::vector<Usb4LinkSummary> out;
  if (!any_host_router(t)) return out;
  for (Vertex v : of_kind(t, NodeKind::Router)) {
    const auto up = parent(t, v);
    if (up && t[*up].kind == NodeKind::Router) out.push_back(summarize(t, v, *up));
  }
  return out;
}

std::optional<Usb4LinkSummary> usb4_link_of_port(const Topology& t, Vertex port) {
  // usb4_links() without summarising every link: this runs once per drive (the bandwidth model), and on the
  // 10,000-device machine of tests/bench/scale_bench.py 870 summaries per drive were 5 % of `export`.
  if (!any_host_router(t)) return std::nullopt;
  const std::string_view syspath = t[port].syspath();
  for (Vertex v : of_kind(t, NodeKind::Router)) {
    const auto up = parent(t, v);
    if (!up || t[*up].kind != NodeKind::Router) continue;
    const auto* p = usb4_port(t[*up].as<RouterInfo>(), upstream_port(t[v].as<RouterInfo>().address));
    if (p && std::find(p->usb_ports.begin(), p->usb_ports.end(), syspath) != p->usb_ports.end())
      return summarize(t, v, *up);
  }
  return std::nullopt;
}

std::optional<Usb4LinkSummary> usb4_link_of(const Topology& t, Vertex v) {
  std::optional<Vertex> root_port;
  for (std::optional<Vertex> cur = v; cur; cur = parent(t, *cur)) {
    if (t[*cur].kind == NodeKind::Port) root_port = cur;
    if (t[*cur].kind == NodeKind::RootHub) break;
  }
  return root_port ? usb4_link_of_port(t, *root_port) : std::nullopt;
}

std::vector<Vertex> usb4_tunnel_disks(const Topology& t, const Usb4LinkSummary& link) {
  std::vector<Vertex> out;
  for (Vertex b : block_devices(t))
    if (const auto l = usb4_link_of(t, b); l && l->router == link.router) out.push_back(b);
  return out;
}

}  // namespace usbsat::topology
