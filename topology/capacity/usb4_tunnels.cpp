#include "topology/capacity/usb4_tunnels.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "topology/model/usb4_arrivals.hpp"

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

/// The USB3 adapter's maximum: the speed of the SuperSpeed root hub the tunnel arrives at.
std::optional<Bandwidth> adapter_max(const Topology& t, const std::vector<Vertex>& ports) {
  std::optional<Bandwidth> best;
  for (Vertex p : ports)
    if (const auto s = t[p].as<PortInfo>().hub_speed; s && is_superspeed(*s))
      best = std::max(best.value_or(Bandwidth::zero()), Bandwidth::from_mbit(nominal_mbps(*s)));
  return best;
}

std::string join_path(const std::vector<Usb4Hop>& path) {
  std::string out;
  for (const auto& h : path) out += (out.empty() ? "" : " > ") + h.router;
  return out;
}

/// The DisplayPort tunnels of the link: one per connected DRM connector on the Type-C connector its USB4
/// port serves, each taking its stream (dp_stream_of) host -> dock; without any, none are assumed (and said).
void displays(const Usb4PortInfo& port, Usb4LinkSummary& s) {
  if (port.displays.empty()) {
    s.assumptions.push_back(
        "DisplayPort tunnels are not read (no DRM link information): none assumed, the USB3 tunnel may get "
        "less for writes");
    return;
  }
  s.display_connectors = port.displays;
  bool reserved = false, depth = false;
  for (const auto& d : port.displays) {
    const auto stream = dp_stream_of(d);
    s.displays = s.displays + stream.rate;
    reserved = reserved || stream.reserved;
    depth = depth || stream.depth_assumed;
  }
  if (reserved)
    s.assumptions.push_back(fmt::format(
        "a display's mode is not known (no EDID): its DisplayPort tunnel assumed to take the HBR2 x 4 "
        "reservation ({}), what the connection manager reserves before bandwidth allocation mode",
        gbit_text(dp_tunnel_assumed())));
  if (depth) s.assumptions.push_back("a display's EDID gives no colour depth: 8 bits per colour assumed");
}

Usb4LinkSummary summarize(const Topology& t, Vertex v, Vertex up);

/// A tunnel behind a device router rides the upstream router's tunnel: every link on the path limits it
/// (each one's usable figure, through the upstream tunnel's own ceiling), and the path is named in the label.
void chain_onto(const Topology& t, Usb4LinkSummary& s, Vertex up) {
  const auto grand = parent(t, up);
  if (!grand) return;
  const Usb4LinkSummary above = summarize(t, up, *grand);
  s.path = above.path;
  s.label += " via " + join_path(above.path);
  auto limit = [](std::optional<Bandwidth>& own, const std::optional<Bandwidth>& outer) {
    if (own && outer) own = std::min(*own, *outer);
    if (!outer) own.reset();
  };
  limit(s.usb3_tunnel, above.usb3_tunnel);
  limit(s.usb3_tunnel_write, above.usb3_tunnel_write);
}

/// The link as trained and what it can carry, without its tunnel (summarize adds that).
Usb4LinkSummary link_figures(const Topology& t, Vertex v, Vertex up) {
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
  // A Thunderbolt 1-3 router is no USB4 router: its link is a Thunderbolt one whatever the host (a host
  // without USB4 ports, an Alpine Ridge one, shows no `link` to say so).
  const bool thunderbolt = r.generation && *r.generation <= 3;
  if (thunderbolt) s.type = "tbt";
  const std::string product = node_product(t, v);
  const std::string kind = thunderbolt       ? fmt::format("Thunderbolt {}", *r.generation)
                           : s.type == "tbt" ? std::string("Thunderbolt")
                                             : std::string("USB4");
  s.label = fmt::format("{} link {}{}", kind, r.name, product.empty() ? "" : " (" + product + ")");
  if (s.lane_gbps && s.lanes) s.usable = usb4_link_usable(*s.lane_gbps, *s.lanes);
  return s;
}

Usb4LinkSummary summarize(const Topology& t, Vertex v, Vertex up) {
  Usb4LinkSummary s = link_figures(t, v, up);
  if (const auto g = t[v].as<RouterInfo>().generation; g && *g <= 3) {
    // Thunderbolt 1-3 routers have no USB3 adapter: a dock's USB devices sit behind its own xHCI, in its
    // PCIe tunnel (pcie_tunnels.hpp).
    s.path.push_back(Usb4Hop{s.name, s.usable});
    return s;
  }
  const bool chained = !t[up].as<RouterInfo>().address.is_host();
  s.usb_ports = arrival_ports(t, v, up, t.usb4_arrivals());
  if (const auto* port = usb4_port(t[up].as<RouterInfo>(), upstream_port(t[v].as<RouterInfo>().address)))
    displays(*port, s);
  if (chained) {
    s.assumptions.push_back(fmt::format(
        "sysfs links no USB port to a router behind {}: its USB3 tunnel is taken to arrive at the port of "
        "{}'s USB3 hub with a SuperSpeed hub attached (every USB4 router carries one)",
        t[up].as<RouterInfo>().name, t[up].as<RouterInfo>().name));
  }
  if (s.usb_ports.empty()) {
    s.assumptions.push_back(
        chained ? "no hub port of the router above could be paired with this link: its USB3 "
                  "tunnel's drives are not known"
                : "no USB port of the host shares a Type-C connector with this link: its USB3 "
                  "tunnel's drives are not known");
  }
  auto adapter = adapter_max(t, s.usb_ports);
  if (!adapter) {
    adapter = Bandwidth::from_mbit(10000);
    s.assumptions.push_back("USB3 adapter assumed 10 Gb/s (USB 3.2 Gen 2)");
  }
  if (s.usable) {
    const auto c = usb3_tunnel_ceilings(*adapter, *s.usable, s.displays);
    s.usb3_tunnel = c.read;
    s.usb3_tunnel_write = c.write;
    s.usb3_isochronous = c.isochronous;
  }
  if (chained) chain_onto(t, s, up);
  s.path.push_back(Usb4Hop{s.name, s.usable});
  return s;
}

}  // namespace

bool Usb4LinkSummary::below_capability() const {
  if (!capable || !lane_gbps || !lanes) return false;
  return *lanes < capable->lanes || *lane_gbps < capable->lane_gbps;
}

DisplayStream dp_stream_of(const DisplayConnectorInfo& d) {
  constexpr unsigned kDefaultBitsPerColor = 8;
  if (!d.edid || !d.edid->preferred || d.edid->preferred->pixel_clock_khz == 0)
    return {dp_tunnel_assumed(), true, false};
  const auto bpc = d.edid->bits_per_color;
  return {dp_stream_bandwidth(d.edid->preferred->pixel_clock_khz, bpc.value_or(kDefaultBitsPerColor)), false,
          !bpc};
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

std::optional<Usb4LinkSummary> usb4_link_to(const Topology& t, Vertex router) {
  if (t[router].kind != NodeKind::Router) return std::nullopt;
  const auto up = parent(t, router);
  if (!up || t[*up].kind != NodeKind::Router || !any_host_router(t)) return std::nullopt;
  return summarize(t, router, *up);
}

std::optional<Usb4LinkSummary> usb4_link_of_port(const Topology& t, Vertex port) {
  // A look-up in the index: this runs once per port above every drive (the bandwidth model), and walking
  // every router with a sort of its siblings made it cubic in the routers behind a device router (issue 41).
  const auto& at = t.usb4_arrivals().router_at;
  if (port >= at.size() || !at[port]) return std::nullopt;
  return summarize(t, *at[port], *parent(t, *at[port]));
}

std::vector<Usb4LinkSummary> usb4_links_of(const Topology& t, Vertex v) {
  std::vector<Usb4LinkSummary> out;
  if (t.usb4_arrivals().router_at.empty()) return out;
  for (std::optional<Vertex> cur = v; cur && t[*cur].kind != NodeKind::RootHub; cur = parent(t, *cur))
    if (t[*cur].kind == NodeKind::Port)
      if (auto l = usb4_link_of_port(t, *cur)) out.push_back(std::move(*l));
  return out;
}

std::optional<Usb4LinkSummary> usb4_link_of(const Topology& t, Vertex v) {
  auto all = usb4_links_of(t, v);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

std::vector<Vertex> usb4_tunnel_disks(const Topology& t, const Usb4LinkSummary& link) {
  std::vector<Vertex> out;
  for (Vertex b : block_devices(t)) {
    const auto all = usb4_links_of(t, b);
    if (std::any_of(all.begin(), all.end(), [&](const auto& l) { return l.router == link.router; }))
      out.push_back(b);
  }
  return out;
}

}  // namespace usbsat::topology
