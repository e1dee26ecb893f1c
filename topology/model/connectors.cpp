#include "topology/model/connectors.hpp"

#include <algorithm>

#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {

const UsbDeviceInfo* usb_info(const Topology& t, Vertex v) {
  return t[v].get_if<UsbDeviceInfo>();
}

std::string hub_name_of_port(const Topology& t, Vertex port) {
  const auto& p = t[port].as<PortInfo>();
  if (!p.hub_name.empty()) return p.hub_name;
  if (auto h = parent(t, port))
    if (const auto* d = usb_info(t, *h)) return d->name;
  return {};
}

/// Whole disks in the subtree of `v` (v included), in tree order.
void collect_blocks(const Topology& t, Vertex v, std::vector<Vertex>& out) {
  if (t[v].kind == NodeKind::Block) out.push_back(v);
  for (Vertex k : children(t, v)) collect_blocks(t, k, out);
}

/// Whole disks below any of `tops`, in block_devices() order. Walks only the subtrees (the views call this
/// once per connector, so a whole-graph scan here made `topo` quadratic on large machines).
std::vector<Vertex> blocks_below(const Topology& t, const std::vector<Vertex>& tops) {
  std::vector<Vertex> out;
  for (Vertex v : tops) collect_blocks(t, v, out);
  if (out.size() < 2) return out;
  std::sort(out.begin(), out.end(), [&](Vertex a, Vertex b) { return block_rank(t, a) < block_rank(t, b); });
  return out;
}

/// Hub vertices in the subtree of `v`, depth-first.
std::vector<Vertex> hubs_below(const Topology& t, Vertex v) {
  std::vector<Vertex> out, stack{v};
  while (!stack.empty()) {
    const Vertex cur = stack.back();
    stack.pop_back();
    if (t[cur].kind == NodeKind::Hub) out.push_back(cur);
    auto kids = children(t, cur);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  return out;
}

}  // namespace

bool superspeed_peer_unknown(const Topology& t, Vertex usb2_port) {
  const auto hub = parent(t, usb2_port);
  if (!hub) return false;
  for (Vertex p : children(t, *hub))
    if (const auto* port = t[p].get_if<PortInfo>(); port && port->peer) return false;
  if (t[*hub].kind == NodeKind::Hub) return usb_info(t, *hub)->hub_peer.has_value();
  const auto controller = parent(t, *hub);
  if (!controller) return false;
  for (Vertex rh : children(t, *controller))
    if (const auto* d = usb_info(t, rh);
        d && t[rh].kind == NodeKind::RootHub && d->speed && is_superspeed(*d->speed))
      return true;
  return false;
}

std::string_view to_string(ConnectorClass c) {
  switch (c) {
    case ConnectorClass::Usb1Only:
      return "USB1.1 only";
    case ConnectorClass::Usb2Only:
      return "USB2 only";
    case ConnectorClass::Usb2PeerUnknown:
      return "USB2 (USB3 side unknown)";
    case ConnectorClass::Usb3_5G:
      return "USB3 5G";
    case ConnectorClass::Usb3_10G:
      return "USB3 10G";
    case ConnectorClass::Usb3_20G:
      return "USB3 20G (Gen2x2)";
    case ConnectorClass::Usb4:
      return "USB4";
    case ConnectorClass::Unknown:
      break;
  }
  return "unknown";
}

ConnectorClass connector_class(std::optional<UsbSpeed> s) {
  if (!s) return ConnectorClass::Unknown;
  switch (*s) {
    case UsbSpeed::Low:
    case UsbSpeed::Full:
      return ConnectorClass::Usb1Only;
    case UsbSpeed::High:
    case UsbSpeed::Wireless:
      return ConnectorClass::Usb2Only;
    case UsbSpeed::Super:
      return ConnectorClass::Usb3_5G;
    case UsbSpeed::SuperPlus:
      return ConnectorClass::Usb3_10G;
    case UsbSpeed::SuperPlus2x2:
      return ConnectorClass::Usb3_20G;
    case UsbSpeed::Usb4_40:
    case UsbSpeed::Usb4_80:
      return ConnectorClass::Usb4;
    case UsbSpeed::Unknown:
      break;
  }
  return ConnectorClass::Unknown;
}

std::size_t ControllerPorts::occupied() const {
  return static_cast<std::size_t>(std::count_if(connectors.begin(), connectors.end(),
                                                [](const auto& c) { return c.occupant.has_value(); }));
}

ControllerSummary summarize_controller(const Topology& t, Vertex controller) {
  const auto& c = t[controller].as<ControllerInfo>();
  ControllerSummary s{.vertex = controller,
                      .pci = c.bdf,
                      .kind = c.kind,
                      .vendor_id = c.vendor_id,
                      .device_id = c.device_id,
                      .vendor = c.vendor_name,
                      .name = c.model_name,
                      .driver = c.driver,
                      .link = c.link,
                      .companions = c.companions};
  for (Vertex k : children(t, controller))
    if (t[k].kind == NodeKind::RootHub) s.root_hubs.push_back(t[k].as<UsbDeviceInfo>().name);
  return s;
}

std::vector<PcieHopSummary> summarize_pcie_uplink(const Topology& t, Vertex controller) {
  std::vector<PcieHopSummary> out;
  for (Vertex v : pcie_uplink(t, controller)) {
    const auto& h = t[v].as<PciHopInfo>();
    out.push_back({v, h.bdf, h.model_name, h.link});
  }
  return out;
}

std::vector<Vertex> drives_below(const Topology& t, Vertex v) {
  return blocks_below(t, {v});
}

ConnectorSummary summarize_connector(const Topology& t, std::size_t index) {
  const Connector& c = t.connectors().at(index);
  ConnectorSummary s;
  s.index = index;
  s.id = c.id;
  const Vertex main_side = c.usb2_port ? *c.usb2_port : *c.usb3_port;
  const auto& mp = t[main_side].as<PortInfo>();
  s.number = mp.number;
  s.hub = hub_name_of_port(t, main_side);
  s.on_root_hub = t[c.hub].kind == NodeKind::RootHub;

  std::string hubs = s.hub;
  for (const auto& side : {c.usb2_port, c.usb3_port}) {
    if (!side) continue;
    const auto& p = t[*side].as<PortInfo>();
    (side == c.usb2_port ? s.usb2_port : s.usb3_port) = p.name;
    if (side != main_side) hubs += "/" + hub_name_of_port(t, *side);
    if (p.hub_speed && (!s.max_speed || *p.hub_speed > *s.max_speed)) s.max_speed = p.hub_speed;
    if (!s.connect_type) s.connect_type = p.connect_type;
    if (!s.location) s.location = p.location;
    if (!s.physical_location) s.physical_location = p.physical_location;
  }
  s.label = (s.on_root_hub ? "" : "hub ") + hubs + " port " + std::to_string(s.number);
  s.speed_class = connector_class(s.max_speed);
  if (s.speed_class == ConnectorClass::Usb2Only && c.usb2_port && !c.usb3_port &&
      superspeed_peer_unknown(t, *c.usb2_port))
    s.speed_class = ConnectorClass::Usb2PeerUnknown;
  s.occupant = occupant(t, c);
  if (s.occupant) {
    if (const auto* d = usb_info(t, *s.occupant)) s.occupant_name = d->name;
  }
  // Drives behind either side (a USB3 hub pair has one half on each).
  std::vector<Vertex> devices;
  for (const auto& side : {c.usb2_port, c.usb3_port})
    if (side)
      for (Vertex k : children(t, *side)) {
        devices.push_back(k);
        if (const auto* d = usb_info(t, k)) s.devices.push_back(d->name);
      }
  for (Vertex b : blocks_below(t, devices)) s.drives.push_back(t[b].as<BlockInfo>().name);
  return s;
}

std::vector<ControllerPorts> summarize_ports(const Topology& t) {
  std::vector<ControllerPorts> out;
  for (Vertex ctrl : t.controllers()) {
    ControllerPorts cp;
    cp.controller = summarize_controller(t, ctrl);
    cp.pcie_uplink = summarize_pcie_uplink(t, ctrl);
    for (std::size_t i = 0; i < t.connectors().size(); ++i)
      if (t.connectors()[i].controller == ctrl) cp.connectors.push_back(summarize_connector(t, i));
    for (Vertex b : drives_below(t, ctrl)) cp.drives.push_back(t[b].as<BlockInfo>().name);

    // Physical hubs: one entry per hub, its peer half folded in.
    std::vector<std::string> seen;
    for (Vertex h : hubs_below(t, ctrl)) {
      const auto& d = t[h].as<UsbDeviceInfo>();
      if (std::find(seen.begin(), seen.end(), d.syspath) != seen.end()) continue;
      HubShare hs;
      hs.hub = d.name;
      seen.push_back(d.syspath);
      std::vector<Vertex> halves{h};
      if (d.hub_peer)
        if (auto pv = t.find(*d.hub_peer)) {
          hs.peer = t[*pv].as<UsbDeviceInfo>().name;
          seen.push_back(*d.hub_peer);
          halves.push_back(*pv);
        }
      if (d.vendor_id && d.product_id) hs.description = format_vid_pid(*d.vendor_id, *d.product_id);
      const std::string name = (d.manufacturer ? *d.manufacturer : std::string()) +
                               (d.manufacturer && d.product ? " " : "") +
                               (d.product ? *d.product : std::string());
      if (!name.empty()) hs.description += (hs.description.empty() ? "" : " ") + name;
      for (Vertex b : blocks_below(t, halves)) hs.drives.push_back(t[b].as<BlockInfo>().name);
      cp.hubs.push_back(std::move(hs));
    }
    out.push_back(std::move(cp));
  }
  return out;
}

std::vector<SharedUplink> shared_pcie_uplinks(const Topology& t) {
  std::vector<SharedUplink> out;
  std::vector<std::vector<std::string>> sets;
  for (Vertex hop : of_kind(t, NodeKind::PciHop)) {
    std::vector<std::string> below;
    for (Vertex c : t.controllers()) {
      const auto up = ancestors(t, c);
      if (std::find(up.begin(), up.end(), hop) != up.end()) below.push_back(t[c].as<ControllerInfo>().bdf);
    }
    if (below.size() < 2) continue;
    // of_kind is depth-first (parents first): a deeper hop with the same set replaces the shallower one.
    bool replaced = false;
    for (std::size_t i = 0; i < sets.size(); ++i)
      if (sets[i] == below) {
        out[i].pci = t[hop].as<PciHopInfo>().bdf;
        replaced = true;
      }
    if (replaced) continue;
    sets.push_back(below);
    out.push_back({t[hop].as<PciHopInfo>().bdf, std::move(below)});
  }
  return out;
}

}  // namespace usbsat::topology
