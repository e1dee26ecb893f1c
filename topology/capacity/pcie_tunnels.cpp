#include "topology/capacity/pcie_tunnels.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "topology/base/text.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology {
namespace {

/// The functions behind the switch's other downstream ports that are switches themselves (a bridge below a
/// downstream port: a device router's PCIe upstream port), in downstream-port order. A function the kernel
/// marks `fixed` is not behind an external-facing port and is left out.
std::vector<Vertex> tunnel_entries(const Topology& t, const ThunderboltSwitch& sw) {
  std::vector<Vertex> out;
  for (Vertex v : of_kind(t, NodeKind::PciHop)) {
    const auto& h = t[v].as<PciHopInfo>();
    const auto down = path_dirname(h.syspath);
    if (path_dirname(down) != sw.upstream || down == sw.nhi_port || h.removable == false) continue;
    out.push_back(v);
  }
  std::sort(out.begin(), out.end(), [&](Vertex a, Vertex b) { return t[a].syspath() < t[b].syspath(); });
  return out;
}

std::vector<Vertex> carried_controllers(const Topology& t, Vertex entry) {
  const std::string prefix = t[entry].syspath() + "/";
  std::vector<Vertex> out;
  for (Vertex c : of_kind(t, NodeKind::Controller))
    if (t[c].syspath().starts_with(prefix)) out.push_back(c);
  return out;
}

std::optional<Bandwidth> controllers_pcie(const Topology& t, const std::vector<Vertex>& cs,
                                          const CapacityModel& m) {
  std::optional<Bandwidth> out;
  for (Vertex c : cs)
    if (const auto cap = pcie_capacity(controller_pcie_link(t, c), m))
      out = out.value_or(Bandwidth::zero()) + *cap;
  return out;
}

PcieTunnelSummary summarize(const Topology& t, const Usb4LinkSummary& link, Vertex entry) {
  PcieTunnelSummary s;
  s.router = link.router;
  s.name = link.name;
  s.link_label = link.label;
  s.label = "PCIe tunnel of the " + link.label;
  s.entry = entry;
  s.downstream = parent(t, entry).value_or(entry);
  s.controllers = carried_controllers(t, entry);
  s.lane_gbps = link.lane_gbps;
  s.lanes = link.lanes;
  s.marked_removable = t[entry].as<PciHopInfo>().removable.value_or(false);
  if (link.usable) s.link_share = pcie_tunnel_share(*link.usable);
  s.controllers_pcie = controllers_pcie(t, s.controllers, nominal_model());
  s.capacity = pcie_tunnel_capacity(t, s);
  if (!s.marked_removable)
    s.assumptions.push_back(fmt::format(
        "PCIe switch {} is not marked removable (kernel before 5.13): joined to router {} by its position "
        "behind the Thunderbolt controller's PCIe downstream port {}",
        t[entry].as<PciHopInfo>().bdf, link.name, t[s.downstream].as<PciHopInfo>().bdf));
  return s;
}

/// Upstream port number of a router one hop from the host: the route string's only byte.
unsigned host_port(const RouterInfo& r) {
  return static_cast<unsigned>(r.address.route & 0xff);
}

void host_tunnels(const Topology& t, Vertex host, const std::vector<Usb4LinkSummary>& links,
                  std::vector<PcieTunnelSummary>& out) {
  const auto& nhi = t[host].as<RouterInfo>().nhi;
  const auto sw = nhi ? thunderbolt_switch(*nhi) : std::nullopt;
  if (!sw) return;
  std::vector<const Usb4LinkSummary*> routers;
  for (const auto& l : links)
    if (l.upstream == host) routers.push_back(&l);
  std::stable_sort(routers.begin(), routers.end(), [&](const Usb4LinkSummary* a, const Usb4LinkSummary* b) {
    return host_port(t[a->router].as<RouterInfo>()) < host_port(t[b->router].as<RouterInfo>());
  });
  const auto entries = tunnel_entries(t, *sw);
  if (routers.empty() || entries.size() != routers.size()) return;
  for (std::size_t i = 0; i < routers.size(); ++i) {
    auto s = summarize(t, *routers[i], entries[i]);
    if (routers.size() > 1)
      s.assumptions.push_back(fmt::format(
          "{} device routers and {} PCIe switches behind the host controller: paired in order of router port "
          "and PCIe downstream port (sysfs links neither to the other)",
          routers.size(), entries.size()));
    out.push_back(std::move(s));
  }
}

}  // namespace

std::optional<ThunderboltSwitch> thunderbolt_switch(std::string_view nhi) {
  const auto port = path_dirname(nhi);
  const auto up = path_dirname(port);
  if (!parse_pci_address(path_basename(port)) || !parse_pci_address(path_basename(up))) return std::nullopt;
  return ThunderboltSwitch{std::string(port), std::string(up)};
}

std::optional<Bandwidth> pcie_tunnel_capacity(const Topology& t, const PcieTunnelSummary& s,
                                              const CapacityModel& m) {
  std::optional<Bandwidth> share;
  if (s.lane_gbps && s.lanes) share = pcie_tunnel_share(usb4_link_usable(*s.lane_gbps, *s.lanes), m);
  const auto ctrl = controllers_pcie(t, s.controllers, m);
  if (share && ctrl) return std::min(*share, *ctrl);
  return share ? share : ctrl;
}

std::vector<PcieTunnelSummary> pcie_tunnels(const Topology& t) {
  std::vector<PcieTunnelSummary> out;
  const auto& routers = of_kind(t, NodeKind::Router);
  if (routers.empty()) return out;
  // Only the links that leave a host router can carry a PCIe tunnel to the host's switch: summarising every
  // link here made a renderer that asks per router quadratic in the routers (issue 41).
  std::vector<Usb4LinkSummary> links;
  for (Vertex v : routers)
    if (const auto up = parent(t, v); up && t[*up].kind == NodeKind::Router && !parent(t, *up))
      if (auto l = usb4_link_to(t, v)) links.push_back(std::move(*l));
  for (Vertex v : routers)
    if (!parent(t, v)) host_tunnels(t, v, links, out);
  return out;
}

std::optional<PcieTunnelSummary> pcie_tunnel_of(const Topology& t, Vertex c) {
  if (of_kind(t, NodeKind::Router).empty()) return std::nullopt;
  for (auto& s : pcie_tunnels(t))
    if (std::find(s.controllers.begin(), s.controllers.end(), c) != s.controllers.end()) return std::move(s);
  return std::nullopt;
}

}  // namespace usbsat::topology
