#include "topology/capacity/resources.hpp"

#include <algorithm>
#include <iterator>

#include "topology/base/string_table.hpp"
#include "topology/base/text.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/controller_name.hpp"
#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology {
namespace {

std::string product_suffix(const Topology& t, Vertex v) {
  const std::string what = node_product(t, v);
  return what.empty() ? std::string{} : " (" + what + ")";
}

std::optional<Bandwidth> override_or(const CapacityModel& m, const std::string& id,
                                     std::optional<Bandwidth> v) {
  if (auto it = m.overrides_mbs.find(id); it != m.overrides_mbs.end()) return Bandwidth::from_mbs(it->second);
  return v;
}

/// The negotiated rate of a USB device's upstream link (hub or drive).
UsbRate usb_link_rate(const Topology& t, Vertex v) {
  const auto& info = t[v].as<UsbDeviceInfo>();
  std::optional<UsbSpeed> speed = info.speed;
  unsigned lanes = info.rx_lanes.value_or(1);
  if (auto e = uplink(t, v); e && t[*e].kind == LinkKind::Usb) {
    if (t[*e].usb_speed) speed = t[*e].usb_speed;
    lanes = std::max(lanes, t[*e].lanes);
  }
  return speed ? usb_rate(*speed, lanes) : UsbRate::Unknown;
}

}  // namespace

constexpr StringTable<ResourceKind, 8> kResourceKindTokens{{{
    {ResourceKind::DriveLink, "drive_link"},
    {ResourceKind::HubUplink, "hub_uplink"},
    {ResourceKind::UsbBus, "usb_bus"},
    {ResourceKind::Controller, "controller"},
    {ResourceKind::PcieLink, "pcie_link"},
    {ResourceKind::Usb4Tunnel, "usb4_tunnel"},
    {ResourceKind::PcieTunnel, "pcie_tunnel"},
    {ResourceKind::Declared, "declared"},
}}};

std::string_view to_string(ResourceKind k) {
  return kResourceKindTokens.name(k, "unknown");
}

std::string resource_identity(const Topology& t, Vertex v) {
  auto ids = [](std::optional<std::uint16_t> a, std::optional<std::uint16_t> b) {
    return a && b ? format_vid_pid(*a, *b) : std::string{};
  };
  const Node& n = t[v];
  if (const auto* c = n.get_if<ControllerInfo>()) return ids(c->vendor_id, c->device_id);
  if (const auto* h = n.get_if<PciHopInfo>()) return ids(h->vendor_id, h->device_id);
  if (const auto* d = n.get_if<UsbDeviceInfo>()) return ids(d->vendor_id, d->product_id);
  if (const auto* r = n.get_if<RouterInfo>()) return ids(r->vendor_id, r->device_id);
  return {};
}

namespace {
Resource make_resource(const Topology& t, const CapacityModel& m, ResourceKind kind, Vertex v,
                       std::optional<Bandwidth> cap, std::string label,
                       std::optional<Basis> basis = std::nullopt) {
  Resource r;
  r.node = node_id(t, v);
  r.id = std::string(to_string(kind)) + ":" + r.node;
  r.kind = kind;
  r.vertex = v;
  r.capacity = override_or(m, r.id, cap);
  if (r.capacity == cap) r.capacity_basis = std::move(basis);
  if (auto it = m.calibrated.find(r.id);
      it != m.calibrated.end() && it->second.identity == resource_identity(t, v) && it->second.mbs > 0) {
    Basis b = it->second.basis;
    b.model_unlimited = !r.capacity;
    if (r.capacity) b.model_mbs = r.capacity->mbs();
    r.capacity = Bandwidth::from_mbs(it->second.mbs);
    r.capacity_basis = std::move(b);
  }
  r.label = std::move(label);
  return r;
}
/// The storage protocol of the interface between disk `block` and its USB device `dev`.
StorageProtocol storage_protocol(const Topology& t, Vertex block, Vertex dev) {
  StorageProtocol proto = StorageProtocol::None;
  for (std::optional<Vertex> cur = block; cur && *cur != dev; cur = parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<InterfaceInfo>()) proto = itf->storage;
  return proto;
}

/// The published row of the setup of `v` (a USB device, or the port a drive is planned on): its controller's.
const PublishedRow* published_row_at(const Topology& t, Vertex v, const CapacityModel& m) {
  const auto ctrl = controller_of(t, v);
  return ctrl ? published_row_for(t, *ctrl, m.published) : nullptr;
}

/// A drive link's ceiling: the table's figure `table`, or the published figure for one drive of protocol
/// `proto` on its controller's setup where that is lower (with its basis).
std::pair<std::optional<Bandwidth>, std::optional<Basis>> published_drive_ceiling(
    const Topology& t, Vertex dev, StorageProtocol proto, std::optional<Bandwidth> table,
    const CapacityModel& m) {
  const auto* row = published_row_at(t, dev, m);
  const auto mbs = row ? published_drive_mbs(*row, proto) : std::nullopt;
  if (!mbs || !table || table->mbs() <= *mbs) return {table, std::nullopt};
  return {Bandwidth::from_mbs(*mbs), published_basis(*row, proto, *mbs, table->mbs())};
}

/// The USB3 tunnel of every USB4 link `port` rides, innermost first (a hub chained behind a dock: the hub's
/// tunnel, then the dock's, which the dock's own drives share), each with its path-limited ceiling.
void usb4_tunnel_resources(const Topology& t, Vertex port, const CapacityModel& m,
                           std::vector<Resource>& out) {
  for (const auto& link : usb4_links_of(t, port))
    out.push_back(make_resource(t, m, ResourceKind::Usb4Tunnel, link.router,
                                m.direction == Direction::Write ? link.usb3_tunnel_write : link.usb3_tunnel,
                                "USB3 tunnel of the " + link.label));
}

}  // namespace

Resource drive_link_resource(const Topology& t, Vertex v, UsbRate rate, StorageProtocol proto,
                             const CapacityModel& m) {
  std::string label(to_string(rate));
  if (proto == StorageProtocol::Bot || proto == StorageProtocol::Uas)
    label += proto == StorageProtocol::Bot ? " BOT" : " UAS";
  auto [cap, basis] = published_drive_ceiling(t, v, proto, usb_drive_capacity(rate, proto, m), m);
  return make_resource(t, m, ResourceKind::DriveLink, v, cap,
                       label + " link of " + node_id(t, v) + product_suffix(t, v), std::move(basis));
}

std::vector<Resource> path_resources(const Topology& t, Vertex block, const CapacityModel& m) {
  std::vector<Resource> out;
  const auto dev = usb_device_of(t, block);
  if (!dev || t[*dev].kind != NodeKind::Device) return out;

  // 1. The drive's own link, by negotiated rate and the protocol of its storage interface.
  out.push_back(drive_link_resource(t, *dev, usb_link_rate(t, *dev), storage_protocol(t, block, *dev), m));

  // 2-5. Everything above the port the drive is plugged into.
  if (const auto port = parent(t, *dev)) {
    auto up = upstream_resources(t, *port, m);
    out.insert(out.end(), std::make_move_iterator(up.begin()), std::make_move_iterator(up.end()));
  }
  return out;
}

std::vector<Resource> upstream_resources(const Topology& t, Vertex port, const CapacityModel& m) {
  std::vector<Resource> out;
  auto add = [&](ResourceKind kind, Vertex v, std::optional<Bandwidth> cap, std::string label) {
    out.push_back(make_resource(t, m, kind, v, cap, std::move(label)));
  };
  // 2. Every hub above it, inner first: the hub's upstream link. The graph keeps the USB2 and USB3 halves of
  //    a hub as separate Hub vertices, so walking up from the drive passes through the half that carries it.
  std::optional<Vertex> cur = port;
  for (; cur && t[*cur].kind != NodeKind::RootHub && t[*cur].kind != NodeKind::Controller;
       cur = parent(t, *cur)) {
    if (t[*cur].kind != NodeKind::Hub) continue;
    const UsbRate r = usb_link_rate(t, *cur);
    add(ResourceKind::HubUplink, *cur, usb_shared_capacity(r, m),
        std::string(to_string(r)) + " uplink of hub " + node_id(t, *cur) + product_suffix(t, *cur));
  }

  // 2b. The USB3 tunnels of USB4 links the port rides (topology/usb4_tunnels): innermost first.
  usb4_tunnel_resources(t, port, m, out);

  // 3. The bus of an EHCI/OHCI/UHCI (or a SoC's USB 2.0 OTG) root hub: one schedule shared by every port of
  //    that root hub.
  const auto ctrl = controller_of(t, port);
  if (cur && t[*cur].kind == NodeKind::RootHub && ctrl) {
    const auto kind = t[*ctrl].as<ControllerInfo>().kind;
    if (kind == HcdKind::Ehci || kind == HcdKind::Ohci || kind == HcdKind::Uhci || kind == HcdKind::Otg) {
      const auto& rh = t[*cur].as<UsbDeviceInfo>();
      const bool high = kind == HcdKind::Ehci || kind == HcdKind::Otg;
      const UsbRate r = rh.speed ? usb_rate(*rh.speed, 1) : (high ? UsbRate::High : UsbRate::Full);
      add(ResourceKind::UsbBus, *cur, usb_shared_capacity(r, m),
          std::string(to_string(r)) + " bus " + node_id(t, *cur) + " (" + std::string(to_string(kind)) +
              ", shared by all its ports)");
    }
  }
  if (!ctrl) return out;

  // 4. The controller: no nominal internal limit (vendors publish none we could cite; chipset xHCIs sit on
  //    DMI, which the PCIe chain covers when it is visible), except a published measurement of it on the
  //    same setup (topology/capacity/published.hpp). A calibrated override may give it one.
  {
    std::optional<Bandwidth> cap;
    std::optional<Basis> basis;
    if (const auto* row = published_row_for(t, *ctrl, m.published))
      if (const auto mbs = published_controller_mbs(*row)) {
        cap = Bandwidth::from_mbs(*mbs);
        basis = published_basis(*row, StorageProtocol::None, *mbs, std::nullopt);
      }
    out.push_back(make_resource(
        t, m, ResourceKind::Controller, *ctrl, cap,
        controller_name(t[*ctrl].as<ControllerInfo>().kind, node_id(t, *ctrl)) + product_suffix(t, *ctrl),
        std::move(basis)));
  }

  // 5. PCIe: the controller's own link, then every hop above it up to the root port; the slowest one limits.
  auto add_pcie = [&](Vertex v, const PcieLink& l) {
    if (l.empty()) return;
    add(ResourceKind::PcieLink, v, pcie_capacity(l, m),
        pcie_link_text(l) + " link of " + node_id(t, v) + product_suffix(t, v));
  };
  add_pcie(*ctrl, controller_pcie_link(t, *ctrl));
  // 5b. A controller in a Thunderbolt dock: the PCIe tunnel replaces the two ends of the tunnelled link (the
  //     dock's switch upstream port and the host controller's downstream port), whose link attributes
  //     describe the routers' PCIe adapters, not what the tunnel moves.
  const auto tunnel = pcie_tunnel_of(t, *ctrl);
  for (Vertex hop : pcie_uplink(t, *ctrl)) {
    if (tunnel && hop == tunnel->entry)
      out.push_back(make_resource(t, m, ResourceKind::PcieTunnel, tunnel->router,
                                  pcie_tunnel_capacity(t, *tunnel, m), tunnel->label));
    if (tunnel && (hop == tunnel->entry || hop == tunnel->downstream)) continue;
    add_pcie(hop, t[hop].as<PciHopInfo>().link);
  }
  return out;
}

std::optional<Basis> published_for_drive(const Topology& t, Vertex block, const CapacityModel& m) {
  const auto dev = usb_device_of(t, block);
  if (!dev || t[*dev].kind != NodeKind::Device) return std::nullopt;
  const auto* row = published_row_at(t, *dev, m);
  if (!row) return std::nullopt;
  const StorageProtocol proto = storage_protocol(t, block, *dev);
  const auto mbs = published_drive_mbs(*row, proto);
  if (!mbs) return std::nullopt;
  const auto table = usb_drive_capacity(usb_link_rate(t, *dev), proto, m);
  return published_basis(*row, proto, *mbs, table ? std::optional(table->mbs()) : std::nullopt);
}

std::optional<Bandwidth> drive_link_capacity(const Topology& t, Vertex block, const CapacityModel& m) {
  for (const auto& r : path_resources(t, block, m))
    if (r.kind == ResourceKind::DriveLink) return r.capacity;
  return std::nullopt;
}

}  // namespace usbsat::topology
