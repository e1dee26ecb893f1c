// The thunderbolt bus: USB4/Thunderbolt routers, their links and USB4 ports (sysfs-bus-thunderbolt). Read
// only where the bus has devices, so a machine without it is asked nothing more than before.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/model/edid.hpp"
#include "topology/model/usb4_link.hpp"
#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::topology::scanner {
namespace {
/// Hops from the host router: one per non-zero byte of the route string.
unsigned depth(const RouterAddress& a) {
  unsigned n = 0;
  for (auto r = a.route; r; r >>= 8) ++n;
  return n;
}
}  // namespace

/// The USB4 ports below a router directory ("usb4_port1", ...): `link` and the `connector` link.
std::vector<Usb4PortInfo> Scanner::usb4_ports(const AttrDir& router) {
  std::vector<Usb4PortInfo> out;
  for (const auto& entry : router.entries()) {
    const auto number = parse_usb4_port_name(entry);
    if (!number) continue;
    AttrDir a(src_, router.syspath() + "/" + entry);
    Usb4PortInfo p;
    p.number = *number;
    if (const auto text = a.get("link")) {
      p.link = parse_usb4_link_type(*text);
      if (!p.link)
        unusable(a.syspath(), "link", text, "is not usb4, tbt or none; the link is shown as unknown");
    }
    p.connector = a.link("connector");
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.number < y.number; });
  return out;
}

void Scanner::add_router(const RawDevice& r, const RouterAddress& address,
                         const std::optional<std::string>& up) {
  AttrDir a(src_, r.syspath);
  // A value the kernel cannot write is unknown, and said, like every other attribute: 0 lanes or 30 Gb/s
  // taken as facts gave 0 Gb/s links and tunnels, 4294967295 of both overflowed the bandwidth arithmetic.
  const auto checked = [&](std::string_view name, auto parse, std::string_view consequence) {
    const auto text = a.get(name);
    auto v = text ? parse(*text) : std::nullopt;
    if (text && !v) unusable(r.syspath, name, text, consequence);
    return v;
  };
  RouterInfo info;
  info.syspath = r.syspath;
  info.name = r.sysname;
  info.address = address;
  info.generation = checked(
      "generation", parse_tb_generation,
      fmt::format("is not a router generation (1 to {}); the generation is unknown", kMaxTbGeneration));
  info.vendor_id = a.parse<std::uint16_t>("vendor", parse_hex16);
  info.device_id = a.parse<std::uint16_t>("device", parse_hex16);
  info.vendor_name = a.trimmed("vendor_name");
  info.device_name = a.trimmed("device_name");
  if (!address.is_host()) {
    constexpr std::string_view kSpeed =
        "is not a lane speed the kernel reports (10, 20 or 40 Gb/s); the link "
        "speed is unknown";
    constexpr std::string_view kLanes =
        "is not a lane count (1 or 2, 3 on an asymmetric link); the link's "
        "lanes are unknown";
    info.rx_speed_gbps = checked("rx_speed", parse_tb_lane_speed, kSpeed);
    info.tx_speed_gbps = checked("tx_speed", parse_tb_lane_speed, kSpeed);
    info.rx_lanes = checked("rx_lanes", parse_tb_lanes, kLanes);
    info.tx_lanes = checked("tx_lanes", parse_tb_lanes, kLanes);
    if (info.rx_lanes && info.tx_lanes && !tb_lanes_consistent(*info.rx_lanes, *info.tx_lanes)) {
      warn(r.syspath,
           fmt::format("attributes 'rx_lanes' = '{}' and 'tx_lanes' = '{}' are not one link's (1 or "
                       "2 each, or 3 one way and 1 the other); the link's lanes are unknown",
                       *info.rx_lanes, *info.tx_lanes));
      info.rx_lanes.reset();
      info.tx_lanes.reset();
    }
  }
  if (r.parent)
    if (const auto& domain = record(*r.parent); domain && domain->devtype == "thunderbolt_domain") {
      info.security = src_.attribute(*r.parent, "security");
      if (domain->parent)
        if (const auto& nhi = record(*domain->parent); nhi && nhi->subsystem == "pci")
          info.nhi = nhi->syspath;
    }
  info.usb4_ports = usb4_ports(a);
  Link link;
  if (up) link = Link{LinkKind::Usb4, std::nullopt, info.rx_lanes.value_or(1), {}};
  builder_.add(Node{NodeKind::Router, std::move(info)}, up, link);
  routers_.push_back(r.syspath);
}

void Scanner::add_thunderbolt() {
  const auto bus = src_.enumerate("thunderbolt");
  std::vector<std::pair<RouterAddress, const RawDevice*>> routers;
  for (const auto& r : bus)
    if (r.devtype == "thunderbolt_device" || r.devtype.empty())
      if (const auto a = parse_router_name(r.sysname)) routers.emplace_back(*a, &r);
  // Parents before children, so each device router finds the router it hangs below.
  std::stable_sort(routers.begin(), routers.end(),
                   [](const auto& x, const auto& y) { return depth(x.first) < depth(y.first); });
  std::map<std::pair<unsigned, std::uint64_t>, std::string> by_address;
  for (const auto& [address, r] : routers) {
    std::optional<std::string> up;
    if (const auto p = address.parent()) {
      const auto it = by_address.find({p->domain, p->route});
      if (it == by_address.end()) {
        warn(r->syspath,
             "router " + router_name(*p) + " above it is not on the thunderbolt bus; shown as a root");
      } else {
        up = it->second;
      }
    }
    by_address.emplace(std::pair{address.domain, address.route}, r->syspath);
    guarded(r->syspath,
            [&, &rr = r, &a = address] { add_router(*rr, a, up); });  // clang 14: no captured bindings
  }
  join_usb4_ports();
  read_tunnel_marks();
}

/// A Thunderbolt controller's PCIe switch: the upstream bridge two levels above the NHI (NHI <- its
/// downstream port <- the upstream port). The PCI hops behind the switch's other downstream ports get their
/// `removable` read, the kernel's mark for devices behind an external-facing port (a dock's switch).
void Scanner::read_tunnel_marks() {
  for (const auto& syspath : routers_) {
    const auto& info = builder_.get(syspath)->as<RouterInfo>();
    if (!info.address.is_host() || !info.nhi) continue;
    const auto sw = thunderbolt_switch(*info.nhi);
    if (!sw) continue;
    for (const auto& entry : records_) {
      const auto& rec = entry.second;
      if (!rec || rec->subsystem != "pci" || !rec->syspath.starts_with(sw->upstream + "/") ||
          rec->syspath.starts_with(sw->nhi_port + "/"))
        continue;
      auto* node = builder_.get(rec->syspath);
      if (!node || node->kind != NodeKind::PciHop) continue;
      const auto text = src_.attribute(rec->syspath, "removable");
      if (text && trim(*text) == "removable") node->as<PciHopInfo>().removable = true;
      if (text && trim(*text) == "fixed") node->as<PciHopInfo>().removable = false;
    }
  }
}

/// Whether a host USB4 port's `connector` link (target `connector`) reaches a device: a dangling link, one
/// that points into the port itself or loops (the kernel's links never do) joins nothing, and is said.
bool Scanner::connector_usable(const std::string& port, const std::string& connector) {
  const bool inside = connector == port || connector.starts_with(port + "/");
  const auto names = inside ? std::vector<std::string>{} : src_.list(connector, "");
  if (std::binary_search(names.begin(), names.end(), "uevent")) return true;
  warn(port, "`connector` link points at " + connector +
                 ", which is no device (a dangling link, or one to itself or in a loop); the link's Type-C "
                 "connector is unknown, so no USB port or display is joined to it");
  return false;
}

/// Host routers' USB4 ports -> the USB ports of the host xHCI on the same Type-C connector (both carry a
/// `connector` link to it). Read only when some host USB4 port names a connector.
void Scanner::join_usb4_ports() {
  std::vector<Usb4PortInfo*> wanted;
  std::map<std::string, std::string> claimed;  // Type-C connector -> the first USB4 port naming it
  for (const auto& syspath : routers_) {
    auto& info = builder_.get(syspath)->as<RouterInfo>();
    if (!info.address.is_host()) continue;
    for (auto& p : info.usb4_ports) {
      if (!p.connector) continue;
      const std::string port = syspath + "/usb4_port" + std::to_string(p.number);
      if (!connector_usable(port, *p.connector)) {
        p.connector.reset();
        continue;
      }
      // One Type-C connector serves one USB4 port: a second claim would count its displays twice.
      if (const auto [first, fresh] = claimed.emplace(*p.connector, port); !fresh) {
        warn(port, "`connector` link names " + *p.connector + ", which " + first->second +
                       " names too; its USB ports and displays are counted once, for that port");
        p.connector.reset();
        continue;
      }
      wanted.push_back(&p);
    }
  }
  if (wanted.empty()) return;
  for (const auto& entry : ports_) {
    const auto& seed = entry.second;
    if (!seed.hub_name.starts_with("usb")) continue;  // root hub ports only
    const auto connector = src_.link_target(seed.syspath, "connector");
    if (!connector) continue;
    for (auto* p : wanted)
      if (*p->connector == *connector) p->usb_ports.push_back(seed.syspath);
  }
  join_displays(wanted);
}

/// Connected DRM connectors whose `typec_connector` link (drm_sysfs.c, Linux >= 6.4) names the Type-C
/// connector of a host USB4 port: the displays whose DisplayPort tunnels ride that port's link. Only the
/// connectors with such a link are read further (`status`, then `enabled` and `edid` of connected ones).
void Scanner::join_displays(const std::vector<Usb4PortInfo*>& wanted) {
  for (const auto& c : src_.enumerate("drm")) {
    if (c.devtype != "drm_connector") continue;
    const auto connector = src_.link_target(c.syspath, "typec_connector");
    if (!connector) continue;
    std::vector<Usb4PortInfo*> on;
    for (auto* p : wanted)
      if (*p->connector == *connector) on.push_back(p);
    if (on.empty()) continue;
    AttrDir a(src_, c.syspath);
    const auto status = a.trimmed("status");
    if (status != "connected") {
      // drm_get_connector_status_name(): anything else is not the kernel's, and the display is not counted.
      if (status != "disconnected" && status != "unknown")
        unusable(c.syspath, "status", status,
                 "is not connected, disconnected or unknown; the display is not counted in the USB4 link");
      continue;
    }
    DisplayConnectorInfo d{};
    d.syspath = c.syspath;
    d.name = c.sysname;
    if (const auto enabled = a.trimmed("enabled"); enabled == "enabled" || enabled == "disabled")
      d.enabled = *enabled == "enabled";
    if (const auto edid = a.binary("edid"); edid && !edid->empty()) {
      d.edid = parse_edid(*edid);
      // A binary attribute passes the sanitising boundary as it is: the name read out of it does here.
      if (d.edid && d.edid->monitor_name) d.edid->monitor_name = trim_and_escape(*d.edid->monitor_name);
      if (!d.edid)
        warn(c.syspath,
             "edid is not an EDID (no 00 FF .. FF 00 header in 128 bytes); the display is "
             "shown without its mode");
    }
    for (auto* p : on) p->displays.push_back(d);
  }
}

}  // namespace usbsat::topology::scanner
