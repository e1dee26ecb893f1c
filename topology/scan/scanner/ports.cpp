// Hub ports: the usb_port directories (connect type, location, peer, physical location), one per
// (hub, number) whether the kernel shows it or it is derived from maxchild (old kernels: synthesized).
#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {

/// Record a port once per (hub, number); a port seen in sysfs replaces a derived name. Returns the
/// syspath the port will have.
std::string Scanner::seed_port(PortSeed seed) {
  auto key = std::pair{seed.hub_syspath, seed.number};
  auto it = ports_.find(key);
  if (it == ports_.end()) return ports_.emplace(key, std::move(seed)).first->second.syspath;
  if (seed.authoritative && !it->second.authoritative) it->second = std::move(seed);
  return it->second.syspath;
}

void Scanner::add_port(std::string syspath, const PortSeed& seed) {
  // drives --json needs a port's other attributes only on a drive's connector (read_connector_sides), so
  // its directory is listed only where the `peer` link and a device's `port` link leave its existence open.
  const bool lazy = drive_holders_only();
  AttrDir a(src_, syspath, !lazy);
  auto peer = a.link("peer");
  if (lazy && !peer && !seed.authoritative) a = AttrDir(src_, syspath);
  if (!a.exists() && !seed.authoritative) {
    // Kernels 3.5-3.11 named port directories "portN".
    const std::string old = std::string(path_dirname(syspath)) + "/port" + std::to_string(seed.number);
    if (AttrDir o(src_, old); o.exists()) {
      syspath = old;
      a = std::move(o);
      peer = a.link("peer");
    }
  }
  PortInfo p;
  p.syspath = syspath;
  p.name = port_name_for(seed.hub_name, seed.number);  // canonical even where the kernel said "port3"
  p.number = seed.number;
  p.hub_name = seed.hub_name;
  p.synthesized = !a.exists();
  if (auto* hub = builder_.get(seed.hub_syspath)) p.hub_speed = hub->as<UsbDeviceInfo>().speed;
  if (lazy) {  // drives --json prints these of a drive's connector only
    unread_ports_.emplace(syspath,
                          UnreadPort{a.has("connect_type"), a.has("location"), a.has("physical_location")});
  } else {
    p.connect_type = a.get("connect_type");
    if (drive_fields()) p.location = a.get("location");
    p.physical_location = read_physical_location(a);
  }
  p.peer = std::move(peer);
  if (p.peer) peered_ports_.push_back(syspath);
  if (p.peer && lazy) peered_by_[*p.peer].push_back(syspath);
  if (!lazy)  // the topo tree shows over-current events; drives --json does not
    p.over_current_count = a.parse<unsigned>("over_current_count", to_unsigned);
  if (full()) {
    p.state = a.get("state");
    p.quirks = a.get("quirks");
    p.usb3_lpm_permit = a.get("usb3_lpm_permit");
  }
  builder_.add(Node{NodeKind::Port, std::move(p)}, seed.hub_syspath);
}

std::optional<PhysicalLocation> Scanner::read_physical_location(const AttrDir& a) {
  PhysicalLocation loc;
  loc.panel = a.get("physical_location/panel");
  if (!loc.panel) return std::nullopt;
  loc.vertical_position = a.get("physical_location/vertical_position");
  loc.horizontal_position = a.get("physical_location/horizontal_position");
  if (auto v = a.get("physical_location/dock")) loc.dock = parse_yes_no(*v);
  if (auto v = a.get("physical_location/lid")) loc.lid = parse_yes_no(*v);
  return loc;
}

void Scanner::check_peers() {
  for (const auto& syspath : peered_ports_) {
    auto* n = builder_.get(syspath);
    if (!n || n->kind != NodeKind::Port) continue;
    auto& p = n->as<PortInfo>();
    const auto* target = builder_.get(*p.peer);
    if (*p.peer == p.syspath)
      warn(syspath, "`peer` link points at the port itself; the port is shown without a peer");
    else if (!target || target->kind != NodeKind::Port)
      warn(syspath, "`peer` link points at " + *p.peer +
                        ", which is not a scanned port; the port is shown without a peer");
    else
      continue;
    p.peer.reset();
  }
}

}  // namespace usbsat::topology::scanner
