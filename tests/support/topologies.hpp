#pragma once
/// Canonical machines built in memory with TopologyBuilder, for tests of the queries and renderers that do
/// not need a scanner. Syspaths follow the kernel's layout so the data look exactly like a scan's:
///   /sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.1/2-1.1:1.0/host6/target6:0:0/6:0:0:0/block/sdc
/// Edges follow topology.hpp (a device's parent is the port it is plugged into).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/builder.hpp"

namespace usbsat::testing {

namespace tp = usbsat::topology;

/// Small fluent helper over TopologyBuilder: every add_* returns the syspath of what it added.
class MachineBuilder {
 public:
  std::string pci_hop(std::optional<std::string> parent, const std::string& bdf, std::uint16_t vid,
                      std::uint16_t did, tp::PcieLink link, std::string model = {}) {
    const std::string sp = (parent ? *parent : std::string("/sys/devices/pci0000:") + bdf.substr(5, 2)) + "/" + bdf;
    tp::PciHopInfo h{.syspath = sp, .bdf = bdf, .vendor_id = vid, .device_id = did, .class_code = 0x060400,
                     .driver = "pcieport", .model_name = std::move(model), .link = link};
    add({tp::NodeKind::PciHop, std::move(h)}, parent, {.kind = tp::LinkKind::Pci, .pcie = link});
    return sp;
  }

  std::string controller(std::optional<std::string> parent, const std::string& bdf, tp::HcdKind kind,
                         std::uint16_t vid, std::uint16_t did, std::string vendor, std::string model,
                         tp::PcieLink link = {}, std::vector<std::string> companions = {}) {
    const std::string sp = (parent ? *parent : std::string("/sys/devices/pci0000:") + bdf.substr(5, 2)) + "/" + bdf;
    static constexpr std::uint32_t kProgIf[] = {0, 0x00, 0x10, 0x20, 0x30, 0x40};
    const char* driver = kind == tp::HcdKind::Xhci ? "xhci_hcd"
                         : kind == tp::HcdKind::Ehci ? "ehci-pci"
                         : kind == tp::HcdKind::Ohci ? "ohci-pci"
                                                      : "uhci_hcd";
    tp::ControllerInfo c{.syspath = sp, .bdf = bdf, .kind = kind, .vendor_id = vid, .device_id = did,
                         .class_code = 0x0c0300 | kProgIf[static_cast<int>(kind)], .driver = driver,
                         .vendor_name = std::move(vendor), .model_name = std::move(model), .link = link,
                         .companions = std::move(companions)};
    add({tp::NodeKind::Controller, std::move(c)}, parent, {.kind = tp::LinkKind::Pci, .pcie = link});
    return sp;
  }

  /// A root hub usbN with `nports` ports named usbN-portM.
  std::string root_hub(const std::string& ctrl, unsigned bus, tp::UsbSpeed speed, unsigned nports) {
    const std::string sp = ctrl + "/usb" + std::to_string(bus);
    const bool ss = tp::is_superspeed(speed);
    tp::UsbDeviceInfo d{.syspath = sp, .name = "usb" + std::to_string(bus), .busnum = bus, .devnum = 1,
                        .vendor_id = 0x1d6b, .product_id = static_cast<std::uint16_t>(ss ? 3 : 2),
                        .version = ss ? " 3.10" : " 2.00", .bcd_usb = static_cast<std::uint16_t>(ss ? 0x310 : 0x200),
                        .speed = speed, .device_class = 9, .maxchild = nports, .driver = "usb"};
    add({tp::NodeKind::RootHub, std::move(d)}, ctrl, {});
    for (unsigned p = 1; p <= nports; ++p)
      add_port(sp, "usb" + std::to_string(bus) + "-port" + std::to_string(p),
               sp + "/" + std::to_string(bus) + "-0:1.0", p, "usb" + std::to_string(bus));
    return sp;
  }

  /// Syspath of port `n` of the (root) hub at `hub_sp`.
  static std::string port_of(const std::string& hub_sp, unsigned n) {
    const std::string name = hub_sp.substr(hub_sp.rfind('/') + 1);
    if (name.rfind("usb", 0) == 0) {
      const std::string bus = name.substr(3);
      return hub_sp + "/" + bus + "-0:1.0/usb" + bus + "-port" + std::to_string(n);
    }
    return hub_sp + "/" + name + ":1.0/" + name + "-port" + std::to_string(n);
  }

  /// Make ports a and b each other's `peer` (one physical connector).
  void peer(const std::string& a, const std::string& b) {
    b_.get(a)->as<tp::PortInfo>().peer = b;
    b_.get(b)->as<tp::PortInfo>().peer = a;
  }
  tp::PortInfo& port(const std::string& sp) { return b_.get(sp)->as<tp::PortInfo>(); }

  struct UsbDev {
    std::uint16_t vid = 0, pid = 0;
    std::string manufacturer, product, serial;
    std::uint16_t bcd_usb = 0x200;
    tp::UsbSpeed speed = tp::UsbSpeed::High;
    std::optional<tp::UsbSpeed> capable;  ///< defaults to the bcdUSB rule
    bool capable_from_bos = false;
    unsigned max_power_ma = 100;
  };

  /// A hub plugged into `port_sp`, with `nports` ports.
  std::string hub(const std::string& port_sp, const UsbDev& u, unsigned nports) {
    const std::string sp = device_syspath(port_sp);
    auto d = usb_device(sp, u);
    d.device_class = 9;
    d.maxchild = nports;
    add({tp::NodeKind::Hub, std::move(d)}, port_sp, usb_link(u.speed));
    const std::string name = sp.substr(sp.rfind('/') + 1);
    add_interface(sp, 0, {{0, 9, 0, u.speed >= tp::UsbSpeed::Super ? std::uint8_t(0) : std::uint8_t(1), 1}}, "hub");
    for (unsigned p = 1; p <= nports; ++p)
      add_port(sp, name + "-port" + std::to_string(p), sp + "/" + name + ":1.0", p, name);
    return sp;
  }

  /// A non-hub device plugged into `port_sp`.
  std::string device(const std::string& port_sp, const UsbDev& u) {
    const std::string sp = device_syspath(port_sp);
    add({tp::NodeKind::Device, usb_device(sp, u)}, port_sp, usb_link(u.speed));
    return sp;
  }

  /// Interface `num` of device `dev` with its alt settings; the first alt setting is the active one.
  std::string add_interface(const std::string& dev, std::uint8_t num, std::vector<tp::AltSetting> alts,
                            std::string driver, std::optional<std::string> uas_blocked = {}) {
    const std::string name = dev.substr(dev.rfind('/') + 1) + ":1." + std::to_string(num);
    const std::string sp = dev + "/" + name;
    tp::InterfaceInfo i{.syspath = sp, .name = name, .number = num, .driver = std::move(driver)};
    if (!alts.empty()) {
      i.interface_class = alts[0].interface_class;
      i.interface_subclass = alts[0].interface_subclass;
      i.interface_protocol = alts[0].interface_protocol;
      i.alt_setting = alts[0].number;
      i.num_endpoints = alts[0].num_endpoints;
    }
    for (const auto& a : alts)
      if (a.interface_class == 8 && a.interface_subclass == 6 && a.interface_protocol == 0x62) i.uas_capable = true;
    if (i.driver == "uas") i.storage = tp::StorageProtocol::Uas;
    else if (i.driver == "usb-storage") i.storage = tp::StorageProtocol::Bot;
    i.alt_settings = std::move(alts);
    i.uas_blocked_reason = std::move(uas_blocked);
    add({tp::NodeKind::Interface, std::move(i)}, dev, {});
    return sp;
  }

  struct Disk {
    std::string name;  ///< "sdb"
    std::uint64_t size_bytes = 0;
    std::string vendor, model, serial;
    unsigned queue_depth = 1;
    unsigned max_sectors_kb = 240, max_hw_sectors_kb = 240;
    bool rotational = false;
    std::vector<std::string> mountpoints;  ///< of partition 1
  };

  /// A mass-storage device: interface 0 bound to `driver` ("uas"/"usb-storage"), SCSI host `host`, one disk.
  std::string usb_disk(const std::string& dev, bool uas_alt, const std::string& driver, unsigned host,
                       const Disk& disk, std::optional<std::string> uas_blocked = {}) {
    std::vector<tp::AltSetting> alts{{0, 8, 6, 0x50, 2}};
    if (uas_alt) alts.push_back({1, 8, 6, 0x62, 4});
    if (driver == "uas") std::swap(alts[0], alts[1]);  // the active alt setting first
    const std::string intf = add_interface(dev, 0, std::move(alts), driver, std::move(uas_blocked));
    const std::string h = std::to_string(host) + ":0:0:0";
    const std::string scsi = intf + "/host" + std::to_string(host) + "/target" + std::to_string(host) + ":0:0/" + h;
    tp::ScsiDeviceInfo s{.syspath = scsi, .hctl = h, .host = "host" + std::to_string(host), .vendor = disk.vendor,
                         .model = disk.model, .rev = "1.00", .type = 0, .queue_depth = disk.queue_depth};
    if (driver == "usb-storage") s.host_proc_name = "usb-storage";
    add({tp::NodeKind::ScsiDevice, std::move(s)}, intf, {});
    return block(scsi, disk, "usb", true);
  }

  /// A whole disk. `parent` nullopt: a non-USB disk (a root of its own, as the scanner records it).
  std::string block(std::optional<std::string> parent, const Disk& disk, std::string transport, bool usb) {
    // Non-USB disks sit where the kernel puts SATA (ata) and NVMe disks; the scanner records them as roots.
    const std::string host = transport == "nvme" ? "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"
                                                 : "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0";
    const std::string sp = (parent ? *parent + "/block" : host) + "/" + disk.name;
    tp::BlockInfo b{.syspath = sp, .name = disk.name, .devnode = "/dev/" + disk.name,
                    .devnum = usb ? "8:" + std::to_string(16 * (disk.name.back() - 'a')) : "259:0",
                    .size_bytes = disk.size_bytes, .logical_block_size = 512, .physical_block_size = 4096,
                    .max_sectors_kb = disk.max_sectors_kb, .max_hw_sectors_kb = disk.max_hw_sectors_kb,
                    .nr_requests = usb ? 2 * disk.queue_depth : 1023, .rotational = disk.rotational,
                    .removable = false, .read_only = false, .usb = usb, .transport = std::move(transport)};
    if (!disk.vendor.empty()) b.vendor = disk.vendor;
    if (!disk.model.empty()) b.model = disk.model;
    if (!disk.serial.empty()) b.serial = disk.serial;
    const bool nvme = disk.name.rfind("nvme", 0) == 0;
    if (!disk.mountpoints.empty() || disk.size_bytes > 0)
      b.partitions.push_back({disk.name + (nvme ? "p1" : "1"), disk.size_bytes - 1048576, disk.mountpoints, {}});
    add({tp::NodeKind::Block, std::move(b)}, parent, {});
    return sp;
  }

  tp::Topology finish() {
    std::vector<tp::Diagnostic> d;
    auto t = std::move(b_).finish(d);
    diagnostics.insert(diagnostics.end(), d.begin(), d.end());
    return t;
  }

  std::vector<tp::Diagnostic> diagnostics;  ///< from finish() plus any a machine adds on purpose

 private:
  void add(tp::Node n, std::optional<std::string> parent, tp::Link link) {
    const std::string sp = n.syspath();
    if (!b_.add(std::move(n), std::move(parent), link))
      diagnostics.push_back({tp::Severity::Error, sp, "test machine added twice"});
  }

  void add_port(const std::string& hub_sp, std::string name, const std::string& intf_sp, unsigned n,
                std::string hub_name) {
    tp::PortInfo p{.syspath = intf_sp + "/" + name, .name = std::move(name), .number = n,
                   .hub_name = std::move(hub_name), .connect_type = "hotplug",
                   .location = fmt_location(n), .state = "not attached", .over_current_count = 0,
                   .quirks = "0x0"};
    add({tp::NodeKind::Port, std::move(p)}, hub_sp, {});
  }

  static std::string fmt_location(unsigned n) {
    std::string hex = "0000000" + std::to_string(n);
    return "0x" + hex.substr(hex.size() - 8);
  }

  /// "…/usb2/2-0:1.0/usb2-port1" -> "…/usb2/2-1";  "…/2-1/2-1:1.0/2-1-port3" -> "…/2-1/2-1.3".
  static std::string device_syspath(const std::string& port_sp) {
    const auto intf_end = port_sp.rfind('/');
    const auto hub_end = port_sp.rfind('/', intf_end - 1);
    const std::string hub_sp = port_sp.substr(0, hub_end);
    const std::string hub_name = hub_sp.substr(hub_sp.rfind('/') + 1);
    const std::string port_name = port_sp.substr(intf_end + 1);
    const std::string num = port_name.substr(port_name.rfind("port") + 4);
    if (hub_name.rfind("usb", 0) == 0) return hub_sp + "/" + hub_name.substr(3) + "-" + num;
    return hub_sp + "/" + hub_name + "." + num;
  }

  static tp::UsbDeviceInfo usb_device(const std::string& sp, const UsbDev& u) {
    const std::string name = sp.substr(sp.rfind('/') + 1);
    tp::UsbDeviceInfo d{.syspath = sp, .name = name, .busnum = static_cast<unsigned>(std::stoul(name)),
                        .devnum = 2, .vendor_id = u.vid, .product_id = u.pid, .bcd_device = 0x100};
    for (std::size_t i = name.find('-') + 1; i < name.size();) {
      const auto dot = name.find('.', i);
      d.ports.push_back(static_cast<unsigned>(std::stoul(name.substr(i, dot - i))));
      i = dot == std::string::npos ? name.size() : dot + 1;
    }
    if (!u.manufacturer.empty()) d.manufacturer = u.manufacturer;
    if (!u.product.empty()) d.product = u.product;
    if (!u.serial.empty()) d.serial = u.serial;
    char v[8];
    std::snprintf(v, sizeof v, "%2x.%02x", u.bcd_usb >> 8, u.bcd_usb & 0xff);
    d.version = v;
    d.bcd_usb = u.bcd_usb;
    d.speed = u.speed;
    d.capable_speed = u.capable ? *u.capable
                      : u.bcd_usb >= 0x300 ? tp::UsbSpeed::Super
                      : u.bcd_usb >= 0x200 ? tp::UsbSpeed::High
                                           : tp::UsbSpeed::Full;
    d.capable_from_bos = u.capable_from_bos;
    d.rx_lanes = 1;
    d.tx_lanes = 1;
    d.max_power_ma = u.max_power_ma;
    d.device_class = 0;
    d.num_configurations = 1;
    d.removable = "removable";
    d.power_control = "auto";
    d.driver = "usb";
    return d;
  }

  static tp::Link usb_link(tp::UsbSpeed s) { return {.kind = tp::LinkKind::Usb, .usb_speed = s, .lanes = 1}; }

  tp::TopologyBuilder b_;
};

inline constexpr std::uint64_t kGB = 1000ull * 1000 * 1000;

/// Modern Intel workstation: chipset xHCI 00:14.0 (usb1 480M / usb2 10G), a USB3 hub pair (1-1 + 2-1) on
/// connector usb1-port1, a UAS SSD at 10G (sdb on 2-2), a quirked UAS-capable JMicron enclosure on BOT
/// behind the hub (sdc on 2-1.1), a USB2 stick behind the hub (sdd on 1-1.2), a USB3 stick at 480 in the
/// USB2-only port usb1-port4 (sde on 1-4), a low-speed keyboard (1-3); SATA sda and NVMe nvme0n1.
inline tp::Topology workstation(std::vector<tp::Diagnostic>* diags = nullptr) {
  using tp::UsbSpeed;
  MachineBuilder m;
  m.block(std::nullopt, {.name = "sda", .size_bytes = 2000398934016, .vendor = "ATA", .model = "ST2000DM008-2FR102",
                         .serial = "ZFL1ABCD", .queue_depth = 32, .max_sectors_kb = 1280, .max_hw_sectors_kb = 32767,
                         .rotational = true, .mountpoints = {"/srv"}},
          "sata", false);
  m.block(std::nullopt, {.name = "nvme0n1", .size_bytes = 1000204886016, .model = "Samsung SSD 980 PRO 1TB",
                         .serial = "S5GXNF0R123456", .queue_depth = 1023, .max_sectors_kb = 128,
                         .max_hw_sectors_kb = 128, .mountpoints = {"/"}},
          "nvme", false);
  const auto x = m.controller(std::nullopt, "0000:00:14.0", tp::HcdKind::Xhci, 0x8086, 0x7a60, "Intel Corporation",
                              "Raptor Lake USB 3.2 Gen 2x2 (20 Gb/s) XHCI Host Controller");
  const auto u1 = m.root_hub(x, 1, UsbSpeed::High, 4);
  const auto u2 = m.root_hub(x, 2, UsbSpeed::SuperPlus, 3);
  for (unsigned p = 1; p <= 3; ++p) m.peer(MachineBuilder::port_of(u1, p), MachineBuilder::port_of(u2, p));
  m.port(MachineBuilder::port_of(u1, 1)).physical_location =
      tp::PhysicalLocation{.panel = "back", .vertical_position = "upper", .horizontal_position = "left", .dock = false, .lid = false};
  m.port(MachineBuilder::port_of(u1, 4)).physical_location =
      tp::PhysicalLocation{.panel = "front", .vertical_position = "center", .horizontal_position = "right", .dock = false, .lid = false};
  for (unsigned p : {1u, 3u}) m.port(MachineBuilder::port_of(u2, p)).state = "configured";
  for (unsigned p : {1u, 3u, 4u}) m.port(MachineBuilder::port_of(u1, p)).state = "configured";
  m.port(MachineBuilder::port_of(u2, 2)).state = "configured";

  // USB3 hub pair on connector 1.
  const auto h2 = m.hub(MachineBuilder::port_of(u1, 1),
                        {.vid = 0x05e3, .pid = 0x0610, .manufacturer = "GenesysLogic", .product = "USB2.1 Hub",
                         .bcd_usb = 0x210, .speed = UsbSpeed::High},
                        4);
  const auto h3 = m.hub(MachineBuilder::port_of(u2, 1),
                        {.vid = 0x05e3, .pid = 0x0626, .manufacturer = "GenesysLogic", .product = "USB3.1 Hub",
                         .bcd_usb = 0x320, .speed = UsbSpeed::Super, .max_power_ma = 0},
                        4);
  for (unsigned p = 1; p <= 4; ++p) m.peer(MachineBuilder::port_of(h2, p), MachineBuilder::port_of(h3, p));

  // Quirked UAS-capable enclosure behind the hub, on BOT.
  const auto encl = m.device(MachineBuilder::port_of(h3, 1),
                             {.vid = 0x152d, .pid = 0x0578, .manufacturer = "JMicron", .product = "USB to ATA/ATAPI Bridge",
                              .serial = "0123456789AB", .bcd_usb = 0x320, .speed = UsbSpeed::Super, .max_power_ma = 896});
  m.usb_disk(encl, true, "usb-storage", 7,
             {.name = "sdc", .size_bytes = 4000787030016, .vendor = "WDC", .model = "WD40EFRX-68N32N0",
              .serial = "0123456789AB", .queue_depth = 1, .rotational = true, .mountpoints = {"/mnt/backup"}},
             "usb-storage quirks=152d:0578:u");
  // USB2 stick behind the hub's USB2 half.
  const auto stick2 = m.device(MachineBuilder::port_of(h2, 2),
                               {.vid = 0x0781, .pid = 0x5567, .manufacturer = "SanDisk", .product = "Cruzer Blade",
                                .serial = "4C530001230101117340", .bcd_usb = 0x200, .speed = UsbSpeed::High, .max_power_ma = 200});
  m.usb_disk(stick2, false, "usb-storage", 8,
             {.name = "sdd", .size_bytes = 16008609792, .vendor = "SanDisk", .model = "Cruzer Blade",
              .serial = "4C530001230101117340"});
  // UAS SSD at 10G directly on connector 2.
  const auto ssd = m.device(MachineBuilder::port_of(u2, 2),
                            {.vid = 0x04e8, .pid = 0x4001, .manufacturer = "Samsung", .product = "PSSD T7",
                             .serial = "S5SXNS0R700123", .bcd_usb = 0x320, .speed = UsbSpeed::SuperPlus,
                             .capable = UsbSpeed::SuperPlus, .capable_from_bos = true, .max_power_ma = 896});
  m.usb_disk(ssd, true, "uas", 6,
             {.name = "sdb", .size_bytes = 1000204886016, .vendor = "Samsung", .model = "PSSD T7",
              .serial = "S5SXNS0R700123", .queue_depth = 30, .max_sectors_kb = 1024, .max_hw_sectors_kb = 65535});
  // Low-speed keyboard on connector 3 (USB2 side).
  const auto kbd = m.device(MachineBuilder::port_of(u1, 3),
                            {.vid = 0x046d, .pid = 0xc31c, .manufacturer = "Logitech", .product = "USB Keyboard",
                             .bcd_usb = 0x110, .speed = UsbSpeed::Low, .max_power_ma = 90});
  m.add_interface(kbd, 0, {{0, 3, 1, 1, 1}}, "usbhid");
  m.add_interface(kbd, 1, {{0, 3, 0, 0, 1}}, "usbhid");
  // USB3 stick at 480 in the USB2-only port 4.
  const auto stick3 = m.device(MachineBuilder::port_of(u1, 4),
                               {.vid = 0x0781, .pid = 0x5581, .manufacturer = "SanDisk", .product = "Ultra",
                                .serial = "4C531001550407117561", .bcd_usb = 0x320, .speed = UsbSpeed::High, .max_power_ma = 224});
  m.usb_disk(stick3, false, "usb-storage", 9,
             {.name = "sde", .size_bytes = 61530439680, .vendor = "SanDisk", .model = "Ultra",
              .serial = "4C531001550407117561"});
  auto t = m.finish();
  if (diags) *diags = m.diagnostics;
  return t;
}

/// ASMedia ASM1042 add-in card behind a PCIe 2.0 x1 root port (00:1c.4), two UAS drives sharing it.
inline tp::Topology asm1042_card(std::vector<tp::Diagnostic>* diags = nullptr) {
  using tp::UsbSpeed;
  MachineBuilder m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4", 0x8086, 0xa33c,
                            {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 1},
                            "Cannon Lake PCH PCI Express Root Port #5");
  const auto x = m.controller(rp, "0000:03:00.0", tp::HcdKind::Xhci, 0x1b21, 0x1042, "ASMedia Technology Inc.",
                              "ASM1042 SuperSpeed USB Host Controller",
                              {.speed_gts = 5.0, .width = 1, .max_speed_gts = 5.0, .max_width = 1});
  const auto u3 = m.root_hub(x, 3, UsbSpeed::High, 2);
  const auto u4 = m.root_hub(x, 4, UsbSpeed::Super, 2);
  for (unsigned p = 1; p <= 2; ++p) m.peer(MachineBuilder::port_of(u3, p), MachineBuilder::port_of(u4, p));
  const auto a = m.device(MachineBuilder::port_of(u4, 1),
                          {.vid = 0x0bc2, .pid = 0x2322, .manufacturer = "Seagate", .product = "Expansion HDD",
                           .serial = "NAAB1234", .bcd_usb = 0x320, .speed = UsbSpeed::Super, .max_power_ma = 896});
  m.usb_disk(a, true, "uas", 4,
             {.name = "sda", .size_bytes = 5000981078016, .vendor = "Seagate", .model = "Expansion HDD",
              .serial = "NAAB1234", .queue_depth = 30, .max_sectors_kb = 512, .max_hw_sectors_kb = 512, .rotational = true});
  const auto b = m.device(MachineBuilder::port_of(u4, 2),
                          {.vid = 0x1058, .pid = 0x25a2, .manufacturer = "Western Digital", .product = "Elements 25A2",
                           .serial = "575835314142", .bcd_usb = 0x300, .speed = UsbSpeed::Super, .max_power_ma = 896});
  m.usb_disk(b, true, "uas", 5,
             {.name = "sdb", .size_bytes = 2000365289472, .vendor = "WD", .model = "Elements 25A2",
              .serial = "575835314142", .queue_depth = 30, .max_sectors_kb = 512, .max_hw_sectors_kb = 512, .rotational = true});
  auto t = m.finish();
  if (diags) *diags = m.diagnostics;
  return t;
}

/// Legacy ICH: EHCI 00:1d.7 (usb5) with UHCI companions 00:1d.0 (usb1) and 00:1d.1 (usb2); a USB2 hub
/// (5-1) with four sticks (sdb..sde), a low-speed mouse on the UHCI; SATA sda.
inline tp::Topology legacy_ehci(std::vector<tp::Diagnostic>* diags = nullptr) {
  using tp::UsbSpeed;
  MachineBuilder m;
  m.block(std::nullopt, {.name = "sda", .size_bytes = 160041885696, .vendor = "ATA", .model = "HTS541616J9SA00",
                         .queue_depth = 31, .max_sectors_kb = 512, .max_hw_sectors_kb = 32767, .rotational = true,
                         .mountpoints = {"/"}},
          "sata", false);
  const auto uh1 = m.controller(std::nullopt, "0000:00:1d.0", tp::HcdKind::Uhci, 0x8086, 0x2830, "Intel Corporation",
                                "82801H (ICH8 Family) USB UHCI Controller #1", {}, {"0000:00:1d.7"});
  const auto uh2 = m.controller(std::nullopt, "0000:00:1d.1", tp::HcdKind::Uhci, 0x8086, 0x2831, "Intel Corporation",
                                "82801H (ICH8 Family) USB UHCI Controller #2", {}, {"0000:00:1d.7"});
  const auto eh = m.controller(std::nullopt, "0000:00:1d.7", tp::HcdKind::Ehci, 0x8086, 0x283a, "Intel Corporation",
                               "82801H (ICH8 Family) USB2 EHCI Controller #1", {}, {"0000:00:1d.0", "0000:00:1d.1"});
  const auto r1 = m.root_hub(uh1, 1, UsbSpeed::Full, 2);
  m.root_hub(uh2, 2, UsbSpeed::Full, 2);
  const auto r5 = m.root_hub(eh, 5, UsbSpeed::High, 4);
  const auto mouse = m.device(MachineBuilder::port_of(r1, 2),
                              {.vid = 0x046d, .pid = 0xc016, .manufacturer = "Logitech", .product = "Optical Mouse",
                               .bcd_usb = 0x110, .speed = UsbSpeed::Low, .max_power_ma = 100});
  m.add_interface(mouse, 0, {{0, 3, 1, 2, 1}}, "usbhid");
  const auto hub = m.hub(MachineBuilder::port_of(r5, 1),
                         {.vid = 0x05e3, .pid = 0x0608, .manufacturer = "GenesysLogic", .product = "USB2.0 Hub",
                          .bcd_usb = 0x200, .speed = UsbSpeed::High},
                         4);
  for (unsigned p = 1; p <= 4; ++p) {
    const std::string name(1, static_cast<char>('a' + p));
    const auto s = m.device(MachineBuilder::port_of(hub, p),
                            {.vid = 0x1043, .pid = 0x8012, .manufacturer = "Generic", .product = "USB Flash Drive",
                             .serial = "0000000000000" + std::to_string(p), .bcd_usb = 0x200, .speed = UsbSpeed::High});
    m.usb_disk(s, false, "usb-storage", 6 + p,
               {.name = "sd" + name, .size_bytes = 8 * kGB, .vendor = "Generic", .model = "Flash Disk",
                .serial = "0000000000000" + std::to_string(p)});
  }
  auto t = m.finish();
  if (diags) *diags = m.diagnostics;
  return t;
}

}  // namespace usbsat::testing
