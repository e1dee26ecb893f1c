// Root hubs, hubs and USB devices: ids, strings, speeds, descriptors (alternate settings, bcdUSB, the BOS
// capable speed), and the port each device is plugged into.
#include <algorithm>

#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {
namespace {
/// The interface directory that holds a hub's ports: root hub "B-0:1.0", hub "<name>:<config>.0".
std::string hub_interface_name(const UsbDeviceInfo& d, std::optional<unsigned> config) {
  if (d.ports.empty()) return std::to_string(d.busnum) + "-0:1.0";
  return d.name + ":" + std::to_string(config.value_or(1)) + ".0";
}
}  // namespace

void Scanner::add_usb_device(const RawDevice& r) {
  const auto name = parse_usb_name(r.sysname);
  if (!name || name->config) {
    warn(r.syspath, "USB device name '" + r.sysname + "' is not of the form usbN or B-P.P");
    return;
  }
  AttrDir a(src_, r.syspath);
  UsbDeviceInfo d = read_usb_ids(r, a, *name);
  read_usb_attributes(d, a);
  d.driver = r.driver;
  const auto config = read_hub_attributes(d, a);
  list_interfaces(d, a);
  UsbDescriptors desc = read_usb_descriptors(d, a);
  if (d.vendor_id && d.product_id)
    std::tie(d.vendor_name, d.model_name) = usb_names(*d.vendor_id, *d.product_id);

  const bool root = d.ports.empty();
  const NodeKind kind =
      root ? NodeKind::RootHub : (d.device_class == 0x09 ? NodeKind::Hub : NodeKind::Device);
  // Ports of this hub, from maxchild; with an unusable maxchild, the port directories its interface holds
  // (sysfs makes one per port), as the warning says: seeding none dropped the empty ports.
  const std::string intf = r.syspath + "/" + hub_interface_name(d, config);
  if (d.maxchild && *d.maxchild > 0) {
    for (unsigned p = 1; p <= *d.maxchild; ++p)
      seed_port(PortSeed{r.syspath, d.name, p, intf + "/" + port_name_for(d.name, p), false});
  } else if (!d.maxchild && a.has("maxchild") && (root || d.device_class == 0x09)) {
    for (const auto& entry : src_.list(intf, ""))
      if (const auto p = parse_port_name(entry); p && p->hub == d.name && p->number <= kMaxHubPorts)
        seed_port(PortSeed{r.syspath, d.name, p->number, intf + "/" + entry, false});
  }
  std::optional<std::string> up;
  Link link;
  if (root) {
    // The root hub's directory is always its controller's child (usb_add_hcd): the nearest device above it
    // (r.parent) is a root port or the PCI root when the controller's own uevent is gone, and must not be
    // taken for the controller (ensure_controller says the controller is not in the device tree instead).
    const std::string controller(path_dirname(r.syspath));
    ensure_controller(controller, d.name);
    up = controller;
  } else {
    up = seed_upstream_port(d, a);
    if (drive_holders_only())
      device_ports_.emplace(r.syspath, std::pair{std::string(path_dirname(r.syspath)), d.ports.back()});
    link = Link{LinkKind::Usb, d.speed, d.rx_lanes.value_or(1), {}};
  }
  descriptors_.emplace(r.syspath, std::move(desc));
  device_ids_.emplace(r.syspath, std::pair{d.vendor_id, d.product_id});
  if (!builder_.add(Node{kind, std::move(d)}, up, link)) warn(r.syspath, "USB device enumerated twice");
}

UsbDeviceInfo Scanner::read_usb_ids(const RawDevice& r, const AttrDir& a, const UsbName& name) {
  UsbDeviceInfo d;
  d.syspath = r.syspath;
  d.name = r.sysname;
  d.ports = name.ports;
  // uevent (already read by the source) carries BUSNUM, DEVNUM, PRODUCT=vid/pid/bcdDevice and
  // TYPE=class/subclass/protocol; the attributes are the fallback.
  const auto prop = [&](std::string_view key) { return r.property(key); };
  if (auto v = prop("BUSNUM")) d.busnum = to_unsigned(*v).value_or(0);
  if (auto v = prop("DEVNUM")) d.devnum = to_unsigned(*v).value_or(0);
  if (auto v = prop("PRODUCT"); v && parse_triplet(*v, 16)) {
    const auto t = *parse_triplet(*v, 16);
    if (t[0] <= 0xffff && t[1] <= 0xffff && t[2] <= 0xffff) {
      d.vendor_id = static_cast<std::uint16_t>(t[0]);
      d.product_id = static_cast<std::uint16_t>(t[1]);
      d.bcd_device = static_cast<std::uint16_t>(t[2]);
    }
  }
  if (auto v = prop("TYPE"); v && parse_triplet(*v, 10) && (*parse_triplet(*v, 10))[0] <= 0xff)
    d.device_class = static_cast<std::uint8_t>((*parse_triplet(*v, 10))[0]);
  if (d.busnum == 0) d.busnum = a.parse<unsigned>("busnum", to_unsigned).value_or(name.bus);
  if (d.devnum == 0) d.devnum = a.parse<unsigned>("devnum", to_unsigned).value_or(0);
  if (!d.vendor_id) d.vendor_id = a.parse<std::uint16_t>("idVendor", parse_hex16);
  if (!d.product_id) d.product_id = a.parse<std::uint16_t>("idProduct", parse_hex16);
  if (!d.bcd_device) d.bcd_device = a.parse<std::uint16_t>("bcdDevice", parse_hex16);
  return d;
}

void Scanner::read_usb_attributes(UsbDeviceInfo& d, const AttrDir& a) {
  // String descriptors as lsusb shows them: many devices pad them (" SanDisk 3.2Gen1", "USB  ").
  // drives --json prints them only for the devices that hold a disk (read_drive_holder).
  if (drive_holders_only()) {
    if (UnreadStrings u{a.has("manufacturer"), a.has("product"), a.has("serial")};
        u.manufacturer || u.product || u.serial)
      unread_strings_.emplace(d.syspath, u);
  } else {
    d.manufacturer = a.trimmed("manufacturer");
    d.product = a.trimmed("product");
    if (drive_fields()) d.serial = a.trimmed("serial");
  }
  if (a.has("speed")) {
    const auto sp = a.get("speed");
    if (sp) d.speed = parse_speed(*sp);
    if (!d.speed) unusable(d.syspath, "speed", sp, "is not a USB speed; the link speed is unknown");
  }
  if (!d.device_class) d.device_class = a.parse<std::uint8_t>("bDeviceClass", parse_hex8);
  if (full()) {
    d.removable = a.get("removable");
    d.power_control = a.get("power/control");
  }
}

std::optional<unsigned> Scanner::read_hub_attributes(UsbDeviceInfo& d, const AttrDir& a) {
  // Lanes exist only on SuperSpeed links (a USB 2.0 link has one); hubs carry maxchild and the active
  // configuration that names their interface.
  if (full() && (!d.speed || is_superspeed(*d.speed))) {
    d.rx_lanes = a.parse<unsigned>("rx_lanes", to_unsigned);
    d.tx_lanes = a.parse<unsigned>("tx_lanes", to_unsigned);
  }
  if (!d.ports.empty() && d.device_class != 0x09) {
    d.maxchild = 0;
    return std::nullopt;
  }
  if (const auto text = a.get("maxchild")) {
    d.maxchild = parse_maxchild(*text);
    if (!d.maxchild)
      unusable(d.syspath, "maxchild", text,
               "is not a hub's port count (0 to " + std::to_string(kMaxHubPorts) +
                   "); only the ports seen in sysfs are shown");
  }
  if (d.ports.empty()) return 1;  // a root hub's interface is always "B-0:1.0"
  // The active configuration names the interface directories ("1-2:C.0"), which the listing already holds.
  for (const auto& entry : a.entries())
    if (const auto n = parse_usb_name(entry); n && n->config && n->bus == d.busnum && n->ports == d.ports)
      return n->config;
  return a.parse<unsigned>("bConfigurationValue", to_unsigned);
}

void Scanner::list_interfaces(const UsbDeviceInfo& d, const AttrDir& a) {
  for (const auto& entry : a.entries())
    if (entry.size() > d.name.size() + 1 && entry.starts_with(d.name) && entry[d.name.size()] == ':')
      listed_interfaces_.push_back(d.syspath + "/" + entry);
  if (d.ports.empty())  // root hub interface "B-0:1.0"
    for (const auto& entry : a.entries())
      if (entry.starts_with(std::to_string(d.busnum) + "-0:"))
        listed_interfaces_.push_back(d.syspath + "/" + entry);
}

UsbDescriptors Scanner::read_usb_descriptors(UsbDeviceInfo& d, const AttrDir& a) {
  // Descriptors: the interfaces' alternate settings, and the device/config descriptor fields the kernel's
  // attributes are printed from (`version` is "%2x.%02x" of bcdUSB; bMaxPower is in 2 mA units, 8 mA at
  // SuperSpeed), so those attributes need no read of their own.
  UsbDescriptors desc;
  if (auto bytes = a.binary("descriptors")) {
    desc = parse_usb_descriptors(*bytes);
    if (desc.truncated)
      warn(d.syspath, "descriptors file is truncated; alternate settings may be incomplete");
    apply_device_descriptors(d, desc);
  }
  if (!desc.device) {
    if (auto v = a.get("version")) {
      d.version = *v;
      d.bcd_usb = parse_bcd_version(*v);
    }
    d.num_configurations = a.parse<unsigned>("bNumConfigurations", to_unsigned);
  }
  if (!d.max_power_ma && full()) d.max_power_ma = a.parse<unsigned>("bMaxPower", parse_max_power);
  std::optional<UsbSpeed> from_bos;
  if (auto bos = a.binary("bos_descriptors")) from_bos = parse_bos_descriptors(*bos).capable_speed();
  settle_capable_speed(d, from_bos);
  return desc;
}

std::string Scanner::seed_upstream_port(const UsbDeviceInfo& d, const AttrDir& a) {
  // The port this device is plugged into: the `port` link (kernel >= 4.x), else derived from the name.
  const std::string hub_syspath(path_dirname(d.syspath));
  UsbName hub_name{d.busnum, {d.ports.begin(), d.ports.end() - 1}, std::nullopt, std::nullopt};
  const std::string hub = format_usb_name(hub_name);
  std::string port;
  const auto port_link = a.link("port");
  if (port_link)
    port = *port_link;
  else
    port = hub_syspath + "/" +
           hub_interface_name(UsbDeviceInfo{.name = hub, .busnum = d.busnum, .ports = hub_name.ports},
                              hub_config(hub_syspath)) +
           "/" + port_name_for(hub, d.ports.back());
  return seed_port(PortSeed{hub_syspath, hub, d.ports.back(), port, port_link.has_value()});
}

void Scanner::read_drive_holder(const std::string& syspath) {
  auto* device = builder_.get(syspath);
  if (!device) return;
  if (const auto unread = unread_strings_.find(syspath); unread != unread_strings_.end()) {
    auto& d = device->as<UsbDeviceInfo>();
    const auto read = [&](bool listed, const char* name, std::optional<std::string>& to) {
      if (!listed) return;
      if (auto v = src_.attribute(syspath, name)) to = std::string(trim(*v));
    };
    read(unread->second.manufacturer, "manufacturer", d.manufacturer);
    read(unread->second.product, "product", d.product);
    read(unread->second.serial, "serial", d.serial);
    unread_strings_.erase(unread);
  }
  const auto seed = device_ports_.find(syspath);
  const auto port = seed == device_ports_.end() ? ports_.end() : ports_.find(seed->second);
  if (port == ports_.end()) return;
  read_connector_sides(port->second.syspath);
}

void Scanner::read_connector_sides(const std::string& at) {
  // The connector's sides: the port, the port its `peer` names, and the ports whose `peer` names it.
  std::vector<std::string> sides{at};
  if (const auto* n = builder_.get(at); n && n->kind == NodeKind::Port && n->as<PortInfo>().peer)
    sides.push_back(*n->as<PortInfo>().peer);
  if (const auto back = peered_by_.find(at); back != peered_by_.end())
    sides.insert(sides.end(), back->second.begin(), back->second.end());
  // A connector prints its USB2 side's `connect_type`, `location` and `physical_location` and its USB3
  // side's only where the USB2 side has none (ConnectorSummary), so the USB3 sides are read last and only
  // for what is missing.
  // Which side is which is the builder's pairing rule (PortInfo::usb3_side).
  const auto superspeed = [&](const std::string& side) {
    const auto* n = builder_.get(side);
    return n && n->kind == NodeKind::Port && n->as<PortInfo>().usb3_side();
  };
  std::stable_partition(sides.begin(), sides.end(), [&](const auto& side) { return !superspeed(side); });
  bool usb2_connect_type = false, usb2_location = false, usb2_physical_location = false;
  for (const auto& side : sides) {
    auto* n = builder_.get(side);
    const auto unread = unread_ports_.find(side);
    if (!n || n->kind != NodeKind::Port || unread == unread_ports_.end()) continue;
    auto& port_info = n->as<PortInfo>();
    const bool usb3 = superspeed(side);
    if (unread->second.connect_type && !(usb3 && usb2_connect_type))
      port_info.connect_type = src_.attribute(side, "connect_type");
    if (unread->second.location && !(usb3 && usb2_location))
      port_info.location = src_.attribute(side, "location");
    if (unread->second.physical_location && !(usb3 && usb2_physical_location))
      port_info.physical_location = read_physical_location(AttrDir(src_, side, false));
    if (!usb3) {
      usb2_connect_type = usb2_connect_type || port_info.connect_type;
      usb2_location = usb2_location || port_info.location;
      usb2_physical_location = usb2_physical_location || port_info.physical_location;
    }
    unread_ports_.erase(unread);
  }
}

std::optional<unsigned> Scanner::hub_config(const std::string& hub_syspath) {
  if (auto* n = builder_.get(hub_syspath); n && n->as<UsbDeviceInfo>().ports.empty()) return 1;
  auto v = src_.attribute(hub_syspath, "bConfigurationValue");
  return v ? to_unsigned(*v) : std::nullopt;
}

}  // namespace usbsat::topology::scanner
