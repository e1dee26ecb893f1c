#pragma once
/// The one builder of in-memory machines for tests (the named machines are in tests/support/machines.hpp).
/// A fluent helper over topology::TopologyBuilder: every add returns the syspath of what it added, and
/// syspaths and kernel names are derived the way the kernel spells them, so the data look like a scan's:
///   /sys/devices/pci0000:00/0000:00:14.0/usb2/2-0:1.0/usb2-port1/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb
/// Edges follow topology.hpp (a device's parent is the port it is plugged into).
///
/// Vocabulary, top down:
///   pci_hop / controller   PCI functions (PciFunction: ids, names, PCIe link); xHCI/EHCI/OHCI/UHCI
///   root_hub               usbN with ports usbN-port1..n;  pair_ports / peer: USB2+USB3 halves of connectors
///   port(sp)               a port's fields (physical_location, connect_type, over_current_count, state)
///   hub / device           USB devices (UsbDev: ids, strings, bcdUSB, speed, BOS capability, lanes, power)
///   interface              any interface; storage / drive: a mass-storage interface (Storage: uas or
///                          usb-storage, UAS alt setting, the scanner's reason for BOT) + SCSI device + disk
///   system_disk            a SATA/NVMe/virtio disk (a root of its own, as the scanner records it)
/// finish() throws std::logic_error on anything the builder rejects: a broken machine is a bug in the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "topology/model/builder.hpp"
#include "topology/model/usb4_link.hpp"

namespace usbsat::testing {

using namespace usbsat::topology;
namespace tp = usbsat::topology;

inline constexpr std::uint64_t kGB = 1000ull * 1000 * 1000;

/// The whole disk called `name` (block_devices()); a test failure when there is none.
inline Vertex disk_named(const Topology& t, std::string_view name) {
  for (Vertex b : block_devices(t))
    if (t[b].as<BlockInfo>().name == name) return b;
  throw std::logic_error("test machine: no disk " + std::string(name));
}

/// A PCIe link whose maximum is what it trained at.
inline PcieLink pcie(double gts, unsigned width) {
  return PcieLink{gts, width, gts, width};
}

/// Identity of a PCI function (root port, switch port or controller).
struct PciFunction {
  std::uint16_t vid = 0, did = 0;  ///< 0: not recorded
  std::string vendor, model;       ///< hwdb names
  PcieLink link{};                 ///< its own (upstream) link; empty for integrated functions
};

/// A USB device as the kernel describes it.
struct UsbDev {
  std::uint16_t vid = 0, pid = 0;
  std::string manufacturer, product, serial;
  UsbSpeed speed = UsbSpeed::High;  ///< negotiated
  std::optional<std::uint16_t>
      bcd_usb;                      ///< default from the speed: 0x320 SuperSpeed, 0x200 high, 0x110 below
  std::optional<UsbSpeed> capable;  ///< default: what bcdUSB proves, never below the negotiated speed
  bool capable_from_bos = false;    ///< `capable` came from the BOS descriptor
  unsigned lanes = 1;               ///< rx/tx lanes (2: Gen 1x2 / Gen 2x2)
  unsigned max_power_ma = 100;
  std::optional<std::string> power_control;  ///< default as the kernel sets it: "auto" for hubs, "on" else
};

/// A whole disk.
struct Disk {
  std::string name;                         ///< "sdb"
  std::optional<std::uint64_t> size_bytes;  ///< 0: no medium (an empty card-reader slot); nullopt: unknown
  std::string vendor, model, serial;
  unsigned queue_depth = 1;
  unsigned max_sectors_kb = 240, max_hw_sectors_kb = 240;
  bool rotational = false;
  std::vector<std::string> mountpoints;  ///< of partition 1
  std::optional<unsigned> host;          ///< SCSI host number; default: the next free one from 6
  unsigned lun = 0;
};

/// The mass-storage interface above a disk.
struct Storage {
  std::string driver = "uas";                     ///< "uas" or "usb-storage"
  bool uas_alt = true;                            ///< the interface offers a 08/06/62 alternate setting
  std::optional<std::string> uas_blocked_reason;  ///< why a UAS-capable interface runs BOT, when visible
};

/// Syspaths of a drive built by Machine::drive().
struct DriveNodes {
  std::string device, interface, block;
};

class Machine {
 public:
  std::string pci_hop(std::optional<std::string> parent, const std::string& bdf, PciFunction f) {
    const std::string sp = pci_syspath(parent, bdf);
    PciHopInfo h{.syspath = sp,
                 .bdf = bdf,
                 .class_code = 0x060400,
                 .driver = "pcieport",
                 .vendor_name = std::move(f.vendor),
                 .model_name = std::move(f.model),
                 .link = f.link};
    if (f.vid) h.vendor_id = f.vid;
    if (f.did) h.device_id = f.did;
    add({NodeKind::PciHop, std::move(h)}, parent, {.kind = LinkKind::Pci, .pcie = f.link});
    return sp;
  }

  /// A host controller; `companions`: an EHCI's UHCI/OHCI companions, or a companion's EHCI (BDFs).
  std::string controller(std::optional<std::string> parent, const std::string& bdf, HcdKind kind,
                         PciFunction f = {}, std::vector<std::string> companions = {}) {
    const std::string sp = pci_syspath(parent, bdf);
    static constexpr std::uint32_t kProgIf[] = {0, 0x00, 0x10, 0x20, 0x30, 0x40, 0xfe};  // by HcdKind
    const char* driver = kind == HcdKind::Xhci   ? "xhci_hcd"
                         : kind == HcdKind::Ehci ? "ehci-pci"
                         : kind == HcdKind::Ohci ? "ohci-pci"
                                                 : "uhci_hcd";
    ControllerInfo c{.syspath = sp,
                     .bdf = bdf,
                     .kind = kind,
                     .class_code = 0x0c0300 | kProgIf[static_cast<int>(kind)],
                     .driver = driver,
                     .vendor_name = std::move(f.vendor),
                     .model_name = std::move(f.model),
                     .link = f.link,
                     .companions = std::move(companions)};
    if (f.vid) c.vendor_id = f.vid;
    if (f.did) c.device_id = f.did;
    add({NodeKind::Controller, std::move(c)}, parent, {.kind = LinkKind::Pci, .pcie = f.link});
    return sp;
  }

  /// Root hub usbN of `ctrl` with ports usbN-port1..`nports`.
  std::string root_hub(const std::string& ctrl, unsigned bus, UsbSpeed speed, unsigned nports) {
    const std::string name = "usb" + std::to_string(bus);
    const std::string sp = ctrl + "/" + name;
    const bool ss = is_superspeed(speed);
    UsbDeviceInfo d{.syspath = sp,
                    .name = name,
                    .busnum = bus,
                    .devnum = 1,
                    .vendor_id = 0x1d6b,
                    .product_id = static_cast<std::uint16_t>(ss ? 3 : 2),
                    .version = ss ? " 3.10" : " 2.00",
                    .bcd_usb = static_cast<std::uint16_t>(ss ? 0x310 : 0x200),
                    .speed = speed,
                    .device_class = 9,
                    .maxchild = nports,
                    .driver = "usb"};
    add({NodeKind::RootHub, std::move(d)}, ctrl, {});
    for (unsigned p = 1; p <= nports; ++p)
      add_port(sp, name + "-port" + std::to_string(p), sp + "/" + std::to_string(bus) + "-0:1.0", p, name);
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

  /// Make ports a and b each other's `peer` (the two halves of one physical connector).
  void peer(const std::string& a, const std::string& b) {
    port(a).peer = b;
    port(b).peer = a;
  }
  /// Peer ports 1..n of the USB2 (root) hub `usb2` with those of the USB3 (root) hub `usb3`.
  void pair_ports(const std::string& usb2, const std::string& usb3, unsigned n) {
    for (unsigned p = 1; p <= n; ++p) peer(port_of(usb2, p), port_of(usb3, p));
  }
  PortInfo& port(const std::string& sp) { return node(sp).as<PortInfo>(); }

  /// A hub plugged into `port_sp`, with `nports` ports.
  std::string hub(const std::string& port_sp, const UsbDev& u, unsigned nports) {
    const std::string sp = device_syspath(port_sp);
    auto d = usb_device(sp, u, true);
    d.device_class = 9;
    d.maxchild = nports;
    add({NodeKind::Hub, std::move(d)}, port_sp, usb_link(u));
    const std::string name = sp.substr(sp.rfind('/') + 1);
    interface(sp, 0, {{0, 9, 0, is_superspeed(u.speed) ? std::uint8_t(0) : std::uint8_t(1), 1}}, "hub");
    for (unsigned p = 1; p <= nports; ++p)
      add_port(sp, name + "-port" + std::to_string(p), sp + "/" + name + ":1.0", p, name);
    return sp;
  }

  /// A non-hub device plugged into `port_sp`.
  std::string device(const std::string& port_sp, const UsbDev& u) {
    const std::string sp = device_syspath(port_sp);
    add({NodeKind::Device, usb_device(sp, u, false)}, port_sp, usb_link(u));
    return sp;
  }

  /// Interface `num` of device `dev` with its alt settings; the first alt setting is the active one.
  std::string interface(const std::string& dev, std::uint8_t num, std::vector<AltSetting> alts,
                        std::string driver, std::optional<std::string> uas_blocked = {}) {
    const std::string name = dev.substr(dev.rfind('/') + 1) + ":1." + std::to_string(num);
    const std::string sp = dev + "/" + name;
    InterfaceInfo i{.syspath = sp, .name = name, .number = num, .driver = std::move(driver)};
    if (!alts.empty()) {
      i.interface_class = alts[0].interface_class;
      i.interface_subclass = alts[0].interface_subclass;
      i.interface_protocol = alts[0].interface_protocol;
      i.alt_setting = alts[0].number;
      i.num_endpoints = alts[0].num_endpoints;
    }
    for (const auto& a : alts)
      if (a.interface_class == 8 && a.interface_subclass == 6 && a.interface_protocol == 0x62)
        i.uas_capable = true;
    if (i.driver == "uas")
      i.storage = StorageProtocol::Uas;
    else if (i.driver == "usb-storage")
      i.storage = StorageProtocol::Bot;
    i.alt_settings = std::move(alts);
    i.uas_blocked_reason = std::move(uas_blocked);
    add({NodeKind::Interface, std::move(i)}, dev, {});
    return sp;
  }

  /// Mass-storage interface 0 of `dev` (bound to s.driver), its SCSI host and LUN, and the disk.
  /// Returns the interface's syspath; the disk's is `block_syspath` of it.
  std::string storage_interface(const std::string& dev, const Storage& s) {
    std::vector<AltSetting> alts{{0, 8, 6, 0x50, 2}};
    if (s.uas_alt) alts.push_back({1, 8, 6, 0x62, 4});
    if (s.driver == "uas") std::swap(alts[0], alts[1]);  // the active alt setting first
    return interface(dev, 0, std::move(alts), s.driver, s.uas_blocked_reason);
  }
  /// A SCSI disk below storage interface `intf`; returns the block device's syspath.
  std::string scsi_disk(const std::string& intf, const std::string& driver, const Disk& disk) {
    const unsigned host = disk.host.value_or(next_host_);
    next_host_ = std::max(next_host_, host + 1);
    const std::string h = std::to_string(host) + ":0:0:" + std::to_string(disk.lun);
    const std::string scsi =
        intf + "/host" + std::to_string(host) + "/target" + std::to_string(host) + ":0:0/" + h;
    ScsiDeviceInfo s{.syspath = scsi,
                     .hctl = h,
                     .host = "host" + std::to_string(host),
                     .rev = "1.00",
                     .type = 0,
                     .queue_depth = disk.queue_depth};
    if (!disk.vendor.empty()) s.vendor = disk.vendor;
    if (!disk.model.empty()) s.model = disk.model;
    if (driver == "usb-storage") s.host_proc_name = "usb-storage";
    add({NodeKind::ScsiDevice, std::move(s)}, intf, {});
    return add_block(scsi, disk, "usb", true);
  }

  /// A USB mass-storage device on `port_sp`: device, storage interface, SCSI device, disk.
  DriveNodes drive(const std::string& port_sp, const UsbDev& u, const Disk& disk, const Storage& s = {}) {
    DriveNodes d;
    d.device = device(port_sp, u);
    d.interface = storage_interface(d.device, s);
    d.block = scsi_disk(d.interface, s.driver, disk);
    return d;
  }

  /// A USB4 router "D-R" (host router when `route` is 0, a root; else below router `parent_sp` by a USB4 link
  /// of `lane_gbps` per lane over `lanes`). `usb4_ports`: its usb4_portN (host routers: the USB ports of the
  /// host xHCI sharing each one's Type-C connector).
  std::string router(std::optional<std::string> parent_sp, std::uint64_t route, unsigned generation,
                     std::string device_name, std::vector<Usb4PortInfo> usb4_ports = {},
                     unsigned lane_gbps = 20, unsigned lanes = 2) {
    RouterInfo r;
    r.address = RouterAddress{0, route};
    r.name = router_name(r.address);
    r.syspath =
        (parent_sp ? *parent_sp : std::string("/sys/devices/pci0000:00/0000:00:0d.2/domain0")) + "/" + r.name;
    r.generation = generation;
    r.vendor_name = "Example";
    r.device_name = std::move(device_name);
    r.usb4_ports = std::move(usb4_ports);
    if (route != 0) {
      r.rx_speed_gbps = r.tx_speed_gbps = lane_gbps;
      r.rx_lanes = r.tx_lanes = lanes;
    }
    const std::string sp = r.syspath;
    add({NodeKind::Router, std::move(r)}, parent_sp,
        route ? Link{LinkKind::Usb4, std::nullopt, lanes, {}} : Link{});
    return sp;
  }

  /// A disk that is not below USB ("sata", "nvme", "virtio"), a root of its own as the scanner records it.
  std::string system_disk(const Disk& disk, const std::string& transport) {
    return add_block(std::nullopt, disk, transport, false);
  }

  /// Mutable access before finish(), for fields no helper sets (as a scanner fills details in later).
  Node& node(const std::string& syspath) {
    Node* n = b_.get(syspath);
    if (!n) throw std::logic_error("test machine: no node " + syspath);
    return *n;
  }

  Topology finish() {
    std::vector<Diagnostic> d;
    auto t = std::move(b_).finish(d);
    if (!d.empty()) throw std::logic_error("test machine: " + d.front().where + ": " + d.front().message);
    return t;
  }

 private:
  static std::string pci_syspath(const std::optional<std::string>& parent, const std::string& bdf) {
    return (parent ? *parent : "/sys/devices/pci0000:" + bdf.substr(5, 2)) + "/" + bdf;
  }

  void add(Node n, std::optional<std::string> parent, Link link) {
    const std::string sp = n.syspath();
    if (!b_.add(std::move(n), std::move(parent), link)) throw std::logic_error("test machine: twice " + sp);
  }

  std::string add_block(std::optional<std::string> parent, const Disk& disk, std::string transport,
                        bool usb) {
    // Non-USB disks sit where the kernel puts SATA (ata) and NVMe disks.
    const std::string host = transport == "nvme"
                                 ? "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"
                                 : "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0";
    const std::string sp = (parent ? *parent + "/block" : host) + "/" + disk.name;
    BlockInfo b{.syspath = sp,
                .name = disk.name,
                .devnode = "/dev/" + disk.name,
                .devnum = usb ? "8:" + std::to_string(16 * (disk.name.back() - 'a')) : "259:0",
                .size_bytes = disk.size_bytes,
                .logical_block_size = 512,
                .physical_block_size = 4096,
                .max_sectors_kb = disk.max_sectors_kb,
                .max_hw_sectors_kb = disk.max_hw_sectors_kb,
                .nr_requests = usb ? 2 * disk.queue_depth : 1023,
                .rotational = disk.rotational,
                .removable = false,
                .read_only = false,
                .usb = usb,
                .transport = std::move(transport)};
    if (!disk.vendor.empty()) b.vendor = disk.vendor;
    if (!disk.model.empty()) b.model = disk.model;
    if (!disk.serial.empty()) b.serial = disk.serial;
    const bool nvme = disk.name.rfind("nvme", 0) == 0;
    if (!disk.mountpoints.empty() || disk.size_bytes.value_or(0) > 0)
      b.partitions.push_back(
          {disk.name + (nvme ? "p1" : "1"), disk.size_bytes.value_or(0) - 1048576, disk.mountpoints, {}});
    add({NodeKind::Block, std::move(b)}, parent, {});
    return sp;
  }

  void add_port(const std::string& hub_sp, std::string name, const std::string& intf_sp, unsigned n,
                std::string hub_name) {
    char loc[16];
    std::snprintf(loc, sizeof loc, "0x%08x", n);
    PortInfo p{.syspath = intf_sp + "/" + name,
               .name = std::move(name),
               .number = n,
               .hub_name = std::move(hub_name),
               .connect_type = "hotplug",
               .location = loc,
               .state = "not attached",
               .over_current_count = 0,
               .quirks = "0x0"};
    add({NodeKind::Port, std::move(p)}, hub_sp, {});
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

  static UsbDeviceInfo usb_device(const std::string& sp, const UsbDev& u, bool is_hub) {
    const std::string name = sp.substr(sp.rfind('/') + 1);
    UsbDeviceInfo d{.syspath = sp,
                    .name = name,
                    .busnum = static_cast<unsigned>(std::stoul(name)),
                    .devnum = 2,
                    .bcd_device = 0x100};
    if (u.vid || u.pid) {
      d.vendor_id = u.vid;
      d.product_id = u.pid;
    }
    for (std::size_t i = name.find('-') + 1; i < name.size();) {
      const auto dot = name.find('.', i);
      d.ports.push_back(static_cast<unsigned>(std::stoul(name.substr(i, dot - i))));
      i = dot == std::string::npos ? name.size() : dot + 1;
    }
    if (!u.manufacturer.empty()) d.manufacturer = u.manufacturer;
    if (!u.product.empty()) d.product = u.product;
    if (!u.serial.empty()) d.serial = u.serial;
    const std::uint16_t bcd = u.bcd_usb                   ? *u.bcd_usb
                              : is_superspeed(u.speed)    ? std::uint16_t(0x320)
                              : u.speed == UsbSpeed::High ? std::uint16_t(0x200)
                                                          : std::uint16_t(0x110);
    char v[8];
    std::snprintf(v, sizeof v, "%2x.%02x", bcd >> 8, bcd & 0xff);
    d.version = v;
    d.bcd_usb = bcd;
    d.speed = u.speed;
    const UsbSpeed by_bcd = bcd >= 0x300 ? UsbSpeed::Super : bcd >= 0x200 ? UsbSpeed::High : UsbSpeed::Full;
    d.capable_speed = u.capable ? *u.capable : std::max(by_bcd, u.speed);
    d.capable_from_bos = u.capable_from_bos;
    d.rx_lanes = u.lanes;
    d.tx_lanes = u.lanes;
    d.max_power_ma = u.max_power_ma;
    d.device_class = 0;
    d.num_configurations = 1;
    d.removable = "removable";
    d.power_control = u.power_control.value_or(is_hub ? "auto" : "on");
    d.driver = "usb";
    return d;
  }

  static Link usb_link(const UsbDev& u) {
    return {.kind = LinkKind::Usb, .usb_speed = u.speed, .lanes = u.lanes};
  }

  TopologyBuilder b_;
  unsigned next_host_ = 6;
};

/// The block vertex called `name` (throws when absent: a broken test, not a test outcome).
inline Vertex block(const Topology& t, const std::string& name) {
  auto v = t.find_by_name(name);
  if (!v) throw std::logic_error("no block device " + name);
  return *v;
}

}  // namespace usbsat::testing
