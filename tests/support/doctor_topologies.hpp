#pragma once
/// In-memory machines for the doctor tests, built with TopologyBuilder. Syspaths follow the kernel's layout
/// (controller/usbN/N-0:1.0/usbN-portM, hub/H:1.0/H-portM) closely enough to be unique and readable.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "topology/builder.hpp"

namespace usbsat::testing {

using namespace usbsat::topology;

/// A thin helper over TopologyBuilder that derives syspaths and names; each add_* returns the syspath.
class Machine {
 public:
  std::string pci_hop(std::optional<std::string> parent, const std::string& bdf, PcieLink link) {
    const std::string path = (parent ? *parent : std::string("/sys/devices/pci0000:00")) + "/" + bdf;
    add({NodeKind::PciHop, PciHopInfo{.syspath = path, .bdf = bdf, .driver = "pcieport", .link = link}},
        parent, Link{.kind = LinkKind::Pci, .pcie = link});
    return path;
  }

  std::string controller(std::optional<std::string> parent, const std::string& bdf, HcdKind kind,
                         PcieLink link = {}, std::vector<std::string> companions = {},
                         std::string model = {}) {
    const std::string path = (parent ? *parent : std::string("/sys/devices/pci0000:00")) + "/" + bdf;
    std::string driver = kind == HcdKind::Xhci   ? "xhci_hcd"
                         : kind == HcdKind::Ehci ? "ehci-pci"
                         : kind == HcdKind::Ohci ? "ohci-pci"
                                                 : "uhci_hcd";
    add({NodeKind::Controller, ControllerInfo{.syspath = path,
                                              .bdf = bdf,
                                              .kind = kind,
                                              .driver = driver,
                                              .model_name = std::move(model),
                                              .link = link,
                                              .companions = std::move(companions)}},
        parent, parent ? Link{.kind = LinkKind::Pci, .pcie = link} : Link{});
    return path;
  }

  std::string root_hub(const std::string& ctrl, unsigned bus, UsbSpeed speed) {
    const std::string path = ctrl + "/usb" + std::to_string(bus);
    add({NodeKind::RootHub,
         UsbDeviceInfo{.syspath = path, .name = "usb" + std::to_string(bus), .busnum = bus, .speed = speed}},
        ctrl);
    return path;
  }

  /// Syspath of port `n` of the (root) hub at `hub_path` named `hub_name` ("usb1" or "1-2").
  static std::string port_path(const std::string& hub_path, const std::string& hub_name, unsigned n) {
    const bool root = hub_name.rfind("usb", 0) == 0;
    const std::string bus = root ? hub_name.substr(3) : std::string();
    const std::string iface = root ? bus + "-0:1.0" : hub_name + ":1.0";
    return hub_path + "/" + iface + "/" + port_name(hub_name, n);
  }
  static std::string port_name(const std::string& hub_name, unsigned n) {
    return hub_name + "-port" + std::to_string(n);
  }

  /// A port; `peer` is the syspath of its other half. `extra` may set over-current, location, connect type.
  std::string port(const std::string& hub_path, const std::string& hub_name, unsigned n,
                   std::optional<std::string> peer = {}, PortInfo extra = {}) {
    extra.syspath = port_path(hub_path, hub_name, n);
    extra.name = port_name(hub_name, n);
    extra.number = n;
    extra.hub_name = hub_name;
    extra.peer = std::move(peer);
    add({NodeKind::Port, extra}, hub_path);
    return extra.syspath;
  }

  /// Ports 1..n of a USB2/USB3 pair of (root) hubs, peered one to one.
  void paired_ports(const std::string& hub2, const std::string& name2, const std::string& hub3,
                    const std::string& name3, unsigned n) {
    for (unsigned i = 1; i <= n; ++i) {
      port(hub2, name2, i, port_path(hub3, name3, i));
      port(hub3, name3, i, port_path(hub2, name2, i));
    }
  }

  /// A USB device (kind Device or Hub) plugged into `port`. `u.name` must be set ("2-1").
  std::string usb_device(const std::string& port, UsbDeviceInfo u, NodeKind kind = NodeKind::Device) {
    u.syspath = port + "/" + u.name;
    const auto speed = u.speed;
    add({kind, u}, port, Link{.kind = LinkKind::Usb, .usb_speed = speed});
    return u.syspath;
  }

  /// Interface `dev_name`:1.0 of class 08 with the given driver; UAS-capable adds a 08/06/62 alt setting.
  std::string storage_interface(const std::string& dev, const std::string& dev_name,
                                const std::string& driver, bool uas_capable) {
    InterfaceInfo i{.syspath = dev + "/" + dev_name + ":1.0", .name = dev_name + ":1.0"};
    i.interface_class = 0x08;
    i.interface_subclass = 0x06;
    i.interface_protocol = driver == "uas" ? 0x62 : 0x50;
    i.alt_settings.push_back({0, 0x08, 0x06, 0x50, 2});
    if (uas_capable) i.alt_settings.push_back({1, 0x08, 0x06, 0x62, 4});
    i.driver = driver;
    i.storage = driver == "uas" ? StorageProtocol::Uas : StorageProtocol::Bot;
    i.uas_capable = uas_capable;
    const std::string path = i.syspath;
    add({NodeKind::Interface, std::move(i)}, dev);
    return path;
  }

  /// SCSI device + whole disk below a storage interface.
  std::string disk(const std::string& iface, const std::string& hctl, const std::string& name,
                   std::optional<unsigned> max_sectors_kb, std::optional<unsigned> max_hw_sectors_kb) {
    const std::string scsi = iface + "/host/target/" + hctl;
    add({NodeKind::ScsiDevice, ScsiDeviceInfo{.syspath = scsi, .hctl = hctl}}, iface);
    BlockInfo b{.syspath = scsi + "/block/" + name, .name = name, .devnode = "/dev/" + name};
    b.max_sectors_kb = max_sectors_kb;
    b.max_hw_sectors_kb = max_hw_sectors_kb;
    b.usb = true;
    b.transport = "usb";
    add({NodeKind::Block, b}, scsi);
    return b.syspath;
  }

  /// A USB storage device with one interface and one disk, in one call.
  struct DriveSpec {
    std::string name;  ///< "2-1"
    std::uint16_t vid = 0, pid = 0;
    std::string product;
    UsbSpeed speed = UsbSpeed::Super;
    std::optional<UsbSpeed> capable;
    bool capable_from_bos = true;
    std::string driver = "uas";
    bool uas_capable = true;
    std::string disk;  ///< "sda"
    std::optional<unsigned> max_sectors_kb = 1024, max_hw_sectors_kb = 32767;
    std::string power_control = "on";
    std::string version = " 3.20";
  };
  std::string drive(const std::string& port, const DriveSpec& s) {
    UsbDeviceInfo u{.name = s.name};
    if (s.vid || s.pid) {
      u.vendor_id = s.vid;
      u.product_id = s.pid;
    }
    if (!s.product.empty()) u.product = s.product;
    u.speed = s.speed;
    u.capable_speed = s.capable ? s.capable : std::optional<UsbSpeed>(s.speed);
    u.capable_from_bos = s.capable_from_bos;
    u.power_control = s.power_control;
    u.version = s.version;
    u.bcd_usb = bcd_from_version(s.version);
    const std::string dev = usb_device(port, u);
    const std::string iface = storage_interface(dev, s.name, s.driver, s.uas_capable);
    disk(iface, std::to_string(next_host_++) + ":0:0:0", s.disk, s.max_sectors_kb, s.max_hw_sectors_kb);
    return dev;
  }

  /// " 3.20" -> 0x0320 (the tests' stand-in for the scanner's parser).
  static std::optional<std::uint16_t> bcd_from_version(const std::string& v) {
    const auto dot = v.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 2 >= v.size() + 0 || v.size() < dot + 3)
      return std::nullopt;
    const int major = v[dot - 1] - '0', minor = v[dot + 1] - '0', sub = v[dot + 2] - '0';
    return static_cast<std::uint16_t>((major << 8) | (minor << 4) | sub);
  }

  /// Mutable access before finish(), for fields no helper sets (as a scanner fills details in later).
  Node& node(const std::string& syspath) {
    Node* n = b_.get(syspath);
    if (!n) throw std::logic_error("no node " + syspath);
    return *n;
  }

  Topology finish() {
    std::vector<Diagnostic> diags;
    Topology t = std::move(b_).finish(diags);
    diagnostics = std::move(diags);
    return t;
  }

  std::vector<Diagnostic> diagnostics;

 private:
  void add(Node n, std::optional<std::string> parent, Link link = {}) {
    const std::string path = n.syspath();
    if (!b_.add(std::move(n), std::move(parent), link)) throw std::logic_error("duplicate " + path);
  }
  TopologyBuilder b_;
  unsigned next_host_ = 6;
};

// ---- canonical machines ------------------------------------------------------------------------------

/// An Intel-like chipset xHCI at 0000:00:14.0: usb1 (480, ports 1-6; 1-4 peered with usb2, 5-6 USB2-only)
/// and usb2 (10000, ports 1-4). No devices yet.
struct XhciHost {
  std::string ctrl, usb1, usb2;
};
inline XhciHost xhci_host(Machine& m, UsbSpeed ss = UsbSpeed::SuperPlus, std::string bdf = "0000:00:14.0",
                          unsigned bus2 = 1) {
  XhciHost h;
  h.ctrl = m.controller(std::nullopt, bdf, HcdKind::Xhci);
  const unsigned bus3 = bus2 + 1;
  const std::string n2 = "usb" + std::to_string(bus2), n3 = "usb" + std::to_string(bus3);
  h.usb1 = m.root_hub(h.ctrl, bus2, UsbSpeed::High);
  h.usb2 = m.root_hub(h.ctrl, bus3, ss);
  m.paired_ports(h.usb1, n2, h.usb2, n3, 4);
  m.port(h.usb1, n2, 5);
  m.port(h.usb1, n2, 6);
  return h;
}

/// Healthy: a UAS SSD at 10 Gb/s on usb2-port1 (a USB3 connector), nothing else.
inline Topology healthy_machine() {
  Machine m;
  auto h = xhci_host(m);
  m.drive(Machine::port_path(h.usb2, "usb2", 1), {.name = "2-1",
                                                  .vid = 0x04e8,
                                                  .pid = 0x4001,
                                                  .product = "Portable SSD T7",
                                                  .speed = UsbSpeed::SuperPlus,
                                                  .disk = "sda"});
  return m.finish();
}

/// The workstation of issue 5: UAS SSD at 10G on usb2-port1 (healthy), a USB3 stick in the USB2-only
/// connector usb1-port5 (480 instead of 5000), and a JMicron enclosure at 5G on usb2-port2 held on
/// usb-storage by a `152d:0578:u` quirk (pass kWorkstationQuirks as DoctorConfig::usb_storage_quirks).
inline constexpr const char* kWorkstationQuirks = "152d:0578:u";
inline Topology workstation_machine() {
  Machine m;
  auto h = xhci_host(m);
  m.drive(Machine::port_path(h.usb2, "usb2", 1), {.name = "2-1",
                                                  .vid = 0x04e8,
                                                  .pid = 0x4001,
                                                  .product = "Portable SSD T7",
                                                  .speed = UsbSpeed::SuperPlus,
                                                  .disk = "sda"});
  m.drive(Machine::port_path(h.usb1, "usb1", 5), {.name = "1-5",
                                                  .vid = 0x0781,
                                                  .pid = 0x5581,
                                                  .product = "Ultra",
                                                  .speed = UsbSpeed::High,
                                                  .capable = UsbSpeed::Super,
                                                  .driver = "usb-storage",
                                                  .uas_capable = false,
                                                  .disk = "sdb",
                                                  .max_sectors_kb = 120,
                                                  .max_hw_sectors_kb = 120,
                                                  .version = " 2.10"});
  m.drive(Machine::port_path(h.usb2, "usb2", 2), {.name = "2-2",
                                                  .vid = 0x152d,
                                                  .pid = 0x0578,
                                                  .product = "USB 3.0 Enclosure",
                                                  .speed = UsbSpeed::Super,
                                                  .driver = "usb-storage",
                                                  .uas_capable = true,
                                                  .disk = "sdc",
                                                  .max_sectors_kb = 1024,
                                                  .max_hw_sectors_kb = 1024,
                                                  .version = " 3.00"});
  return m.finish();
}

}  // namespace usbsat::testing
