// A WindowsSnapshot into the model: PCI hops and controllers, the root hub split into its USB2 and SuperSpeed
// halves, hubs, ports with companion peers, devices with their descriptors, interfaces with the service that
// drives them; then the disks, attached to the USB device among their PnP ancestors (disk_attach.cpp).
#include "topology/windows/builder.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "topology/base/text.hpp"
#include "topology/model/builder.hpp"
#include "topology/model/sysfs_parse.hpp"
#include "topology/scan/companions.hpp"
#include "topology/scan/descriptors.hpp"
#include "topology/windows/disk_attach.hpp"
#include "topology/windows/parse.hpp"
#include "topology/windows/safe_snapshot.hpp"
#include "topology/windows/snapshot_json.hpp"

namespace usbsat::topology::windows {
namespace {

PcieLink pcie_link(const PcieLinkProps& p) {
  PcieLink l;
  if (p.current_speed) l.speed_gts = pcie_speed_from_property(*p.current_speed);
  if (p.current_width) l.width = pcie_width_from_property(*p.current_width);
  if (p.max_speed) l.max_speed_gts = pcie_speed_from_property(*p.max_speed);
  if (p.max_width) l.max_width = pcie_width_from_property(*p.max_width);
  return l;
}

bool is_uas_alt(const AltSetting& a) {
  return a.interface_class == 0x08 && a.interface_subclass == 0x06 && a.interface_protocol == 0x62;
}

class Build {
 public:
  explicit Build(const WindowsSnapshot& s) : s_(s) {}
  ScanResult run();

 private:
  void warn(std::string where, std::string message) {
    diags_.push_back({Severity::Warning, std::move(where), std::move(message)});
  }
  void index_hubs(const UsbHub& hub);
  void add_controller(const HostController& hc, const std::string& bdf);
  std::optional<std::string> add_pci_path(const HostController& hc);
  std::string add_root_hub(const std::string& controller, HcdKind kind, std::optional<UsbSpeed> speed,
                           const UsbHub& hub, const std::vector<const UsbPort*>& ports);
  void add_ports(const std::string& hub_syspath, const UsbName& hub_name, const UsbHub& hub,
                 const std::vector<const UsbPort*>& ports, HcdKind controller_kind);
  void add_device(const std::string& port_syspath, const std::string& hub_syspath, UsbName name,
                  const UsbPort& port, const UsbDevice& dev, HcdKind controller_kind);
  void add_interfaces(const std::string& dev_syspath, const UsbDeviceInfo& info, const UsbDevice& dev,
                      const UsbDescriptors& desc, HcdKind controller_kind);
  std::optional<std::string> uas_blocked_reason(const UsbDeviceInfo& info, HcdKind controller_kind) const;
  void resolve_peers();

  const WindowsSnapshot& s_;
  TopologyBuilder builder_;
  std::vector<Diagnostic> diags_;
  unsigned next_bus_ = 1;
  std::map<std::string, const UsbHub*> hubs_by_link_;
  std::map<std::pair<const UsbHub*, unsigned>, std::string> port_syspaths_;
  struct Peer {
    std::string syspath;
    const UsbHub* hub;
    const UsbPort* port;
  };
  std::vector<Peer> peers_;
  UsbPlaces usb_;                         ///< where each USB device and function went, for attach_disk
  std::vector<std::string> controllers_;  ///< syspaths, in the order added  ///< device -> (number, syspath)
};

void Build::index_hubs(const UsbHub& hub) {
  if (hub.symbolic_link && !hub.symbolic_link->empty())
    hubs_by_link_.emplace(key_of(*hub.symbolic_link), &hub);
  for (const auto& p : hub.ports)
    for (const auto& d : p.device)
      if (d.hub) index_hubs(*d.hub);
}

ScanResult Build::run() {
  for (const auto& hc : s_.controllers)
    if (hc.root_hub) index_hubs(*hc.root_hub);
  // Controllers in PCI address order (what bus numbers follow); one without a PCI location last.
  std::vector<std::pair<std::string, const HostController*>> order;
  for (const auto& hc : s_.controllers) {
    auto bdf = hc.pci.location_info ? bdf_from_location_info(*hc.pci.location_info) : std::nullopt;
    if (!bdf) {
      warn(hc.pci.instance_id,
           "host controller has no PCI location (\"PCI bus B, device D, function F\"); it is "
           "named by its instance ID and its PCIe uplink is unknown");
      bdf = hc.pci.instance_id;
    }
    order.emplace_back(*bdf, &hc);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    const bool pa = a.first.starts_with("0000:"), pb = b.first.starts_with("0000:");
    return pa != pb ? pa : a.first < b.first;
  });
  for (const auto& [bdf, hc] : order) add_controller(*hc, bdf);
  std::vector<ControllerInfo*> controllers;
  for (const auto& c : controllers_) controllers.push_back(&builder_.get(c)->as<ControllerInfo>());
  assign_companions(controllers);
  resolve_peers();
  std::vector<const Disk*> disks;
  for (const auto& d : s_.disks) disks.push_back(&d);
  std::stable_sort(disks.begin(), disks.end(),
                   [](const Disk* a, const Disk* b) { return a->device_number < b->device_number; });
  for (const auto* d : disks) attach_disk(builder_, usb_, *d, diags_);
  ScanResult result{std::move(builder_).finish(diags_), {}};
  result.diagnostics = std::move(diags_);
  return result;
}

/// The PCI bridges above a controller, root port first; returns the syspath of the nearest one. A bridge
/// without a PCI location ends the known path there (the bridges above it are not shown).
std::optional<std::string> Build::add_pci_path(const HostController& hc) {
  std::vector<std::pair<std::string, const PciFunction*>> known;  // nearest first
  for (const auto& hop : hc.upstream) {
    auto bdf = hop.location_info ? bdf_from_location_info(*hop.location_info) : std::nullopt;
    if (!bdf) {
      warn(hop.instance_id, "PCI bridge above " + hc.pci.instance_id +
                                " has no PCI location; the PCIe uplink beyond it is unknown");
      break;
    }
    known.emplace_back(*bdf, &hop);
  }
  std::optional<std::string> up;
  std::string path = "/windows/pci";
  for (auto it = known.rbegin(); it != known.rend(); ++it) {
    path += "/" + it->first;
    if (!builder_.contains(path)) {
      const PciFunction& f = *it->second;
      const auto ids = pci_ids(f.hardware_ids, f.compatible_ids);
      PciHopInfo hop;
      hop.syspath = path;
      hop.bdf = it->first;
      hop.vendor_id = ids.vendor_id;
      hop.device_id = ids.device_id;
      hop.class_code = ids.class_code;
      hop.driver = f.service.value_or("");
      hop.vendor_name = f.manufacturer.value_or("");
      hop.model_name = f.description.value_or("");
      hop.link = pcie_link(f.link);
      Link link;
      if (up) link = Link{LinkKind::Pci, std::nullopt, 1, hop.link};
      builder_.add(Node{NodeKind::PciHop, std::move(hop)}, up, link);
    }
    up = path;
  }
  return up;
}

void Build::add_controller(const HostController& hc, const std::string& bdf) {
  const auto up = bdf.starts_with("0000:") ? add_pci_path(hc) : std::nullopt;
  const std::string syspath = (up ? *up : std::string("/windows/pci")) + "/" + bdf;
  const auto ids = pci_ids(hc.pci.hardware_ids, hc.pci.compatible_ids);
  ControllerInfo c;
  c.syspath = syspath;
  c.bdf = bdf;
  c.vendor_id = ids.vendor_id;
  c.device_id = ids.device_id;
  c.subsystem_vendor_id = ids.subsystem_vendor_id;
  c.subsystem_device_id = ids.subsystem_device_id;
  c.class_code = ids.class_code;
  if (c.class_code) c.kind = hcd_kind_from_class(*c.class_code).value_or(HcdKind::Unknown);
  if (c.kind == HcdKind::Unknown && hc.pci.service) c.kind = hcd_kind_from_service(*hc.pci.service);
  c.driver = hc.pci.service.value_or("");
  c.vendor_name = hc.pci.manufacturer.value_or("");
  c.model_name = hc.pci.description.value_or("");
  c.link = pcie_link(hc.pci.link);
  const HcdKind kind = c.kind;
  Link link;
  if (up) link = Link{LinkKind::Pci, std::nullopt, 1, c.link};
  if (!builder_.add(Node{NodeKind::Controller, std::move(c)}, up, link)) {
    warn(hc.pci.instance_id, "host controller listed twice; the second entry is ignored");
    return;
  }
  controllers_.push_back(syspath);
  if (!hc.root_hub) {
    warn(hc.root_hub_instance_id.value_or(hc.pci.instance_id),
         "the root hub could not be read; the controller's ports are unknown");
    return;
  }
  // Windows shows one root hub per controller; the model has one per bus. A SuperSpeed port (USB 3.0
  // protocol, or a device running SuperSpeed where the protocols are not reported) goes to the SuperSpeed
  // half.
  std::vector<const UsbPort*> usb2, usb3;
  for (const auto& p : hc.root_hub->ports) {
    const bool ss = p.protocols.usb300 ? *p.protocols.usb300 : p.speed == 3u;
    (ss ? usb3 : usb2).push_back(&p);
  }
  std::optional<UsbSpeed> low_half;
  switch (kind) {
    case HcdKind::Uhci:
    case HcdKind::Ohci:
      low_half = UsbSpeed::Full;
      break;
    default:
      low_half = UsbSpeed::High;
      break;
  }
  if (!usb2.empty() || usb3.empty()) add_root_hub(syspath, kind, low_half, *hc.root_hub, usb2);
  if (!usb3.empty()) {
    bool plus = false;
    for (const auto* p : usb3) plus = plus || p->operating_at_super_speed_plus_or_higher.value_or(false);
    add_root_hub(syspath, kind, plus ? UsbSpeed::SuperPlus : UsbSpeed::Super, *hc.root_hub, usb3);
  }
}

std::string Build::add_root_hub(const std::string& controller, HcdKind kind, std::optional<UsbSpeed> speed,
                                const UsbHub& hub, const std::vector<const UsbPort*>& ports) {
  UsbDeviceInfo d;
  d.busnum = next_bus_++;
  d.name = "usb" + std::to_string(d.busnum);
  d.syspath = controller + "/" + d.name;
  d.speed = speed;
  d.device_class = 0x09;
  d.maxchild = static_cast<unsigned>(ports.size());
  const std::string syspath = d.syspath;
  const UsbName name{d.busnum, {}, std::nullopt, std::nullopt};
  builder_.add(Node{NodeKind::RootHub, std::move(d)}, controller);
  add_ports(syspath, name, hub, ports, kind);
  return syspath;
}

void Build::add_ports(const std::string& hub_syspath, const UsbName& hub_name, const UsbHub& hub,
                      const std::vector<const UsbPort*>& ports, HcdKind controller_kind) {
  const std::string hub_kernel_name = format_usb_name(hub_name);
  for (const UsbPort* p : ports) {
    PortInfo info;
    info.name = port_name_for(hub_kernel_name, p->number);
    info.syspath = hub_syspath + "/" + info.name;
    info.number = p->number;
    info.hub_name = hub_kernel_name;
    // PortIsUserConnectable is ACPI _UPC "connectable" and _PLD "user visible" together: a port that is not
    // user-connectable is internal (hardwired) or not wired at all; Windows does not tell which.
    if (p->user_connectable) info.connect_type = *p->user_connectable ? "hotplug" : "hardwired";
    if (p->connection_status)
      info.state = *p->connection_status == 1   ? "configured"
                   : *p->connection_status == 0 ? "not attached"
                                                : "error";
    const std::string port_syspath = info.syspath;
    if (!builder_.add(Node{NodeKind::Port, std::move(info)}, hub_syspath)) {
      warn(hub_syspath, "port " + std::to_string(p->number) + " listed twice; the second entry is ignored");
      continue;
    }
    port_syspaths_[{&hub, p->number}] = port_syspath;
    if (p->companion_port && *p->companion_port > 0) peers_.push_back({port_syspath, &hub, p});
    for (const auto& dev : p->device) {
      UsbName name = hub_name;
      name.ports.push_back(p->number);
      add_device(port_syspath, hub_syspath, name, *p, dev, controller_kind);
    }
  }
}

void Build::resolve_peers() {
  for (const auto& peer : peers_) {
    const UsbHub* hub = peer.hub;
    if (const auto& link = peer.port->companion_hub; link && !link->empty()) {
      auto it = hubs_by_link_.find(key_of(*link));
      if (it == hubs_by_link_.end()) {
        warn(peer.syspath,
             "companion hub " + *link + " is not in the snapshot; the port is shown without a peer");
        continue;
      }
      hub = it->second;
    }
    auto it = port_syspaths_.find({hub, *peer.port->companion_port});
    if (it == port_syspaths_.end() || it->second == peer.syspath) {
      warn(peer.syspath, "companion port " + std::to_string(*peer.port->companion_port) +
                             " is not a scanned port; the port is shown without a peer");
      continue;
    }
    builder_.get(peer.syspath)->as<PortInfo>().peer = it->second;
  }
}

void Build::add_device(const std::string& port_syspath, const std::string& hub_syspath, UsbName name,
                       const UsbPort& port, const UsbDevice& dev, HcdKind controller_kind) {
  UsbDeviceInfo d;
  d.name = format_usb_name(name);
  d.syspath = hub_syspath + "/" + d.name;
  d.busnum = name.bus;
  d.ports = name.ports;
  d.speed = negotiated_speed(port.speed, port.operating_at_super_speed_plus_or_higher);
  d.manufacturer = trimmed(dev.manufacturer);
  d.product = trimmed(dev.product);
  d.serial = trimmed(dev.serial);
  d.driver = dev.service.value_or("");
  std::string bytes;
  for (const auto* hex : {&dev.device_descriptor, &dev.configuration_descriptor}) {
    if (!*hex) continue;
    if (auto b = parse_hex_bytes(**hex))
      bytes += *b;
    else
      warn(dev.instance_id, "a descriptor is not hex bytes; what it holds is unknown");
  }
  const UsbDescriptors desc = parse_usb_descriptors(bytes);
  if (desc.truncated)
    warn(dev.instance_id, "descriptors are truncated; alternate settings may be incomplete");
  if (desc.device) d.bcd_device = desc.device->bcd_device;
  apply_device_descriptors(d, desc);
  std::optional<UsbSpeed> capable;
  if (dev.bos_descriptor)
    if (auto b = parse_hex_bytes(*dev.bos_descriptor)) capable = parse_bos_descriptors(*b).capable_speed();
  if (!capable)
    capable = flag_capable_speed(port.super_speed_capable_or_higher, port.super_speed_plus_capable_or_higher);
  settle_capable_speed(d, capable);
  const bool hub = dev.hub.has_value() || d.device_class == 0x09;
  if (hub)
    d.maxchild =
        dev.hub ? dev.hub->number_of_ports.value_or(static_cast<unsigned>(dev.hub->ports.size())) : 0;
  else
    d.maxchild = 0;
  const std::string syspath = d.syspath;
  const UsbDeviceInfo info = d;
  if (!builder_.add(Node{hub ? NodeKind::Hub : NodeKind::Device, std::move(d)}, port_syspath,
                    Link{LinkKind::Usb, info.speed, 1, {}})) {
    warn(dev.instance_id, "USB device listed twice; the second entry is ignored");
    return;
  }
  usb_.by_instance.emplace(key_of(dev.instance_id), UsbPlace{syspath, std::nullopt});
  for (const auto& f : dev.functions)
    usb_.by_instance.emplace(key_of(f.instance_id), UsbPlace{syspath, f.interface_number});
  if (dev.hub) {
    std::vector<const UsbPort*> ports;
    for (const auto& p : dev.hub->ports) ports.push_back(&p);
    add_ports(syspath, name, *dev.hub, ports, controller_kind);
  } else if (!hub) {
    add_interfaces(syspath, info, dev, desc, controller_kind);
  }
}

void Build::add_interfaces(const std::string& dev_syspath, const UsbDeviceInfo& info, const UsbDevice& dev,
                           const UsbDescriptors& desc, HcdKind controller_kind) {
  std::optional<std::uint8_t> config;
  if (!desc.configs.empty())
    config = desc.configs.front().value;
  else if (dev.current_configuration && *dev.current_configuration < 256)
    config = static_cast<std::uint8_t>(*dev.current_configuration);
  std::vector<unsigned> numbers;
  for (const auto& c : desc.configs)
    if (!config || c.value == *config)
      for (const auto& i : c.interfaces)
        if (std::find(numbers.begin(), numbers.end(), i.interface_number) == numbers.end())
          numbers.push_back(i.interface_number);
  for (const auto& f : dev.functions)
    if (std::find(numbers.begin(), numbers.end(), f.interface_number) == numbers.end())
      numbers.push_back(f.interface_number);
  const bool composite = dev.service && iequals(*dev.service, "USBCCGP");
  // A single-function storage device whose configuration descriptor could not be read: its one interface.
  if (numbers.empty() && dev.service && storage_protocol(*dev.service, std::nullopt) != StorageProtocol::None)
    numbers.push_back(0);
  std::sort(numbers.begin(), numbers.end());
  for (unsigned n : numbers) {
    if (n > 255) continue;
    InterfaceInfo i;
    i.number = static_cast<std::uint8_t>(n);
    i.name = info.name + ":" + std::to_string(config.value_or(1)) + "." + std::to_string(n);
    i.syspath = dev_syspath + "/" + i.name;
    i.alt_settings = desc.alt_settings(i.number, config);
    std::string service;
    for (const auto& f : dev.functions)
      if (f.interface_number == n) service = f.service.value_or("");
    if (service.empty() && !composite) service = dev.service.value_or("");
    i.driver = service;
    for (const auto& a : i.alt_settings) i.uas_capable = i.uas_capable || is_uas_alt(a);
    std::optional<std::uint8_t> cls;
    if (!i.alt_settings.empty()) cls = i.alt_settings.front().interface_class;
    i.storage = storage_protocol(service, cls);
    // The active alternate setting: the only one; else the one the bound driver selects (UASPStor the UAS
    // setting, USBSTOR the Bulk-Only one, alternate setting 0).
    const AltSetting* active = nullptr;
    if (i.alt_settings.size() == 1) active = &i.alt_settings.front();
    for (const auto& a : i.alt_settings) {
      if (active) break;
      if (i.storage == StorageProtocol::Uas && is_uas_alt(a)) active = &a;
      if (i.storage == StorageProtocol::Bot && a.number == 0) active = &a;
    }
    if (active) {
      i.alt_setting = active->number;
      i.interface_class = active->interface_class;
      i.interface_subclass = active->interface_subclass;
      i.interface_protocol = active->interface_protocol;
      i.num_endpoints = active->num_endpoints;
    }
    if (i.uas_capable && i.storage == StorageProtocol::Bot)
      i.uas_blocked_reason = uas_blocked_reason(info, controller_kind);
    usb_.interfaces[dev_syspath].emplace_back(n, i.syspath);
    builder_.add(Node{NodeKind::Interface, std::move(i)}, dev_syspath);
  }
}

/// Why Windows drives a UAS-capable interface with USBSTOR, when the snapshot shows it.
std::optional<std::string> Build::uas_blocked_reason(const UsbDeviceInfo& info,
                                                     HcdKind controller_kind) const {
  if (has_inbox_uas_driver(s_.os_version) == false)
    return "Windows " + *s_.os_version + " has no UAS driver (UASPStor ships with Windows 8 and later)";
  if (controller_kind == HcdKind::Uhci || controller_kind == HcdKind::Ohci)
    return std::string("host controller is ") + std::string(to_string(controller_kind)) +
           " (USB 1.1): UAS needs high speed or better";
  if (info.speed && *info.speed <= UsbSpeed::Full)
    return "device runs at " + std::string(to_sysfs_string(*info.speed)) +
           " Mb/s (USB 1.1): UAS needs high speed or better";
  return std::nullopt;
}

}  // namespace

ScanResult build_topology(const WindowsSnapshot& snapshot) {
  const WindowsSnapshot safe = safe_snapshot(snapshot);  // the one boundary for its strings
  return Build(safe).run();
}

ScanResult build_topology(const WindowsSnapshot& snapshot, std::vector<Diagnostic> earlier) {
  auto result = build_topology(snapshot);
  earlier.insert(earlier.end(), std::make_move_iterator(result.diagnostics.begin()),
                 std::make_move_iterator(result.diagnostics.end()));
  result.diagnostics = std::move(earlier);
  return result;
}

ScanResult build_topology(const nlohmann::json& data) {
  std::vector<Diagnostic> reader;
  const auto snapshot = snapshot_from_json(data, reader);
  return build_topology(snapshot, std::move(reader));
}

}  // namespace usbsat::topology::windows
