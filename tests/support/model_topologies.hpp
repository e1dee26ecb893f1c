#pragma once
/// In-memory topologies for the bandwidth-model, prediction and attribution tests: a small fluent helper over
/// TopologyBuilder (kernel names and syspaths are derived the way the kernel spells them) and the canonical
/// scenarios of issue 4. Header-only so any test executable can use it.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "topology/builder.hpp"

namespace usbsat::testing {

using namespace usbsat::topology;

inline PcieLink pcie(double gts, unsigned width) {
  return PcieLink{gts, width, gts, width};
}

/// Builds a topology top-down; every add returns the new node's syspath, used as the parent of the next.
class ModelTopo {
 public:
  std::string pci_hop(const std::string& bdf, const std::optional<std::string>& parent, PcieLink link,
                      std::string model = {}) {
    const std::string sp = (parent ? *parent : std::string("/sys/devices/pci0000:00")) + "/" + bdf;
    add({NodeKind::PciHop,
         PciHopInfo{.syspath = sp, .bdf = bdf, .driver = "pcieport", .model_name = model, .link = link}},
        parent, parent ? Link{.kind = LinkKind::Pci, .pcie = link} : Link{});
    return sp;
  }
  std::string controller(const std::string& bdf, HcdKind kind, const std::optional<std::string>& parent,
                         PcieLink link = {}, std::string model = {}) {
    const std::string sp = (parent ? *parent : std::string("/sys/devices/pci0000:00")) + "/" + bdf;
    add({NodeKind::Controller,
         ControllerInfo{.syspath = sp, .bdf = bdf, .kind = kind, .model_name = model, .link = link}},
        parent, parent ? Link{.kind = LinkKind::Pci, .pcie = link} : Link{});
    return sp;
  }
  std::string root_hub(const std::string& ctrl, unsigned bus, UsbSpeed speed) {
    const std::string name = "usb" + std::to_string(bus);
    const std::string sp = ctrl + "/" + name;
    add({NodeKind::RootHub, UsbDeviceInfo{.syspath = sp, .name = name, .busnum = bus, .speed = speed}}, ctrl);
    usb_[sp] = {name, bus, {}};
    return sp;
  }
  std::string port(const std::string& hub, unsigned n) {
    const auto& h = usb_.at(hub);
    const std::string name = h.name + "-port" + std::to_string(n);
    const std::string sp = hub + "/" + name;
    add({NodeKind::Port, PortInfo{.syspath = sp, .name = name, .number = n, .hub_name = h.name}}, hub);
    ports_[sp] = {h.name, h.bus, h.ports};
    ports_[sp].ports.push_back(n);
    return sp;
  }
  std::string hub(const std::string& port_sp, UsbSpeed speed, std::string product = {}) {
    return usb_device(port_sp, NodeKind::Hub, speed, product, 1);
  }
  /// A mass-storage device on `port_sp`: USB device, interface (uas/usb-storage), SCSI device, block `block`.
  /// Returns the block device's name.
  std::string drive(const std::string& port_sp, UsbSpeed speed, StorageProtocol proto,
                    const std::string& block, unsigned lanes = 1, std::string product = {}) {
    const std::string dev = usb_device(port_sp, NodeKind::Device, speed, product, lanes);
    const std::string dev_name = usb_.at(dev).name;
    const std::string itf = dev + "/" + dev_name + ":1.0";
    add({NodeKind::Interface, InterfaceInfo{.syspath = itf,
                                            .name = dev_name + ":1.0",
                                            .driver = proto == StorageProtocol::Uas ? "uas" : "usb-storage",
                                            .storage = proto}},
        dev);
    const std::string hctl = std::to_string(scsi_host_) + ":0:0:0";
    const std::string scsi = itf + "/host" + std::to_string(scsi_host_) + "/target/" + hctl;
    ++scsi_host_;
    add({NodeKind::ScsiDevice, ScsiDeviceInfo{.syspath = scsi, .hctl = hctl}}, itf);
    add({NodeKind::Block, BlockInfo{.syspath = scsi + "/block/" + block,
                                    .name = block,
                                    .devnode = "/dev/" + block,
                                    .usb = true,
                                    .transport = "usb"}},
        scsi);
    return block;
  }

  Topology finish() {
    std::vector<Diagnostic> diags;
    Topology t = std::move(b_).finish(diags);
    if (!diags.empty()) throw std::logic_error("model topology: " + diags.front().message);
    return t;
  }

 private:
  struct UsbName {
    std::string name;
    unsigned bus = 0;
    std::vector<unsigned> ports;
  };
  void add(Node n, std::optional<std::string> parent, Link l = {}) {
    const std::string sp = n.syspath();
    if (!b_.add(std::move(n), std::move(parent), l)) throw std::logic_error("duplicate " + sp);
  }
  std::string usb_device(const std::string& port_sp, NodeKind kind, UsbSpeed speed,
                         const std::string& product, unsigned lanes) {
    const auto& p = ports_.at(port_sp);
    std::string name = std::to_string(p.bus) + "-";
    for (std::size_t i = 0; i < p.ports.size(); ++i) name += (i ? "." : "") + std::to_string(p.ports[i]);
    const std::string sp = port_sp + "/" + name;
    UsbDeviceInfo info{.syspath = sp, .name = name, .busnum = p.bus, .ports = p.ports, .speed = speed};
    info.rx_lanes = lanes;
    if (!product.empty()) info.product = product;
    add({kind, std::move(info)}, port_sp, Link{.kind = LinkKind::Usb, .usb_speed = speed, .lanes = lanes});
    usb_[sp] = {name, p.bus, p.ports};
    return sp;
  }

  TopologyBuilder b_;
  std::map<std::string, UsbName> usb_, ports_;
  unsigned scsi_host_ = 6;
};

/// The block vertex called `name` (throws when absent: a broken fixture, not a test outcome).
inline Vertex block(const Topology& t, const std::string& name) {
  auto v = t.find_by_name(name);
  if (!v) throw std::logic_error("no block device " + name);
  return *v;
}

// ---- canonical scenarios -------------------------------------------------------------------------------

/// An ASMedia ASM1042 add-in card (xHCI, two root ports) on a PCIe 2.0 x1 link from chipset root port
/// 00:1c.0; sdb on port 1 and sdc on port 2, both USB 3.2 Gen 1 with `proto` (UAS by default).
inline Topology asm1042_two_drives(StorageProtocol proto = StorageProtocol::Uas) {
  ModelTopo m;
  const auto rp = m.pci_hop("0000:00:1c.0", std::nullopt, pcie(5.0, 1), "Intel PCH root port");
  const auto c = m.controller("0000:03:00.0", HcdKind::Xhci, rp, pcie(5.0, 1), "ASM1042");
  m.root_hub(c, 3, UsbSpeed::High);
  const auto ss = m.root_hub(c, 4, UsbSpeed::Super);
  m.drive(m.port(ss, 1), UsbSpeed::Super, proto, "sdb");
  m.drive(m.port(ss, 2), UsbSpeed::Super, proto, "sdc");
  return m.finish();
}

/// An integrated EHCI (00:1d.0, no PCIe link) with a USB 2.0 hub on port 1 and four BOT sticks sdb..sde on
/// its ports 1-4.
inline Topology ehci_hub_four_sticks() {
  ModelTopo m;
  const auto c = m.controller("0000:00:1d.0", HcdKind::Ehci, std::nullopt);
  const auto rh = m.root_hub(c, 1, UsbSpeed::High);
  const auto hub = m.hub(m.port(rh, 1), UsbSpeed::High, "USB2.0 Hub");
  const char* names[] = {"sdb", "sdc", "sdd", "sde"};
  for (unsigned i = 0; i < 4; ++i)
    m.drive(m.port(hub, i + 1), UsbSpeed::High, StorageProtocol::Bot, names[i]);
  return m.finish();
}

/// An integrated xHCI (00:14.0) with a USB3 hub (halves 1-1 on usb1 and 2-1 on usb2, on port 1 of each root
/// hub). A UAS SSD `sdb` is on 2-1.1. The stick `sdc` is a Gen 1 BOT stick on the USB3 half (2-1.2) when
/// `stick_usb3`, else a USB 2.0 BOT stick on the USB2 half (1-1.2).
inline Topology usb3_hub_ssd_and_stick(bool stick_usb3) {
  ModelTopo m;
  const auto c =
      m.controller("0000:00:14.0", HcdKind::Xhci, std::nullopt, {}, "Sunrise Point-LP USB 3.0 xHCI");
  const auto hs = m.root_hub(c, 1, UsbSpeed::High);
  const auto ss = m.root_hub(c, 2, UsbSpeed::Super);
  const auto hub2 = m.hub(m.port(hs, 1), UsbSpeed::High, "USB2.1 Hub");
  const auto hub3 = m.hub(m.port(ss, 1), UsbSpeed::Super, "USB3.1 Hub");
  m.drive(m.port(hub3, 1), UsbSpeed::Super, StorageProtocol::Uas, "sdb");
  if (stick_usb3)
    m.drive(m.port(hub3, 2), UsbSpeed::Super, StorageProtocol::Bot, "sdc");
  else
    m.drive(m.port(hub2, 2), UsbSpeed::High, StorageProtocol::Bot, "sdc");
  return m.finish();
}

/// A PCIe switch card: root port 00:01.0 (PCIe 3.0 x4) -> switch upstream port 01:00.0 (x4) -> one downstream
/// port per controller (02:0N.0, PCIe 2.0 x1) -> a Renesas uPD720202 xHCI (0N:00.0, PCIe 2.0 x1) with one
/// Gen 1 UAS drive on port 1 of its SuperSpeed root hub. `n` controllers (1-4), drives sdb, sdc, ...
inline Topology switch_card(unsigned n) {
  ModelTopo m;
  const auto rp = m.pci_hop("0000:00:01.0", std::nullopt, pcie(8.0, 4), "root port");
  const auto up = m.pci_hop("0000:01:00.0", rp, pcie(8.0, 4), "PEX 8608 upstream");
  for (unsigned i = 0; i < n; ++i) {
    const std::string bus = "0" + std::to_string(3 + i);
    const auto down =
        m.pci_hop("0000:02:0" + std::to_string(i + 1) + ".0", up, pcie(5.0, 1), "PEX 8608 downstream");
    const auto c = m.controller("0000:" + bus + ":00.0", HcdKind::Xhci, down, pcie(5.0, 1), "uPD720202");
    m.root_hub(c, 2 * i + 3, UsbSpeed::High);
    const auto ss = m.root_hub(c, 2 * i + 4, UsbSpeed::Super);
    m.drive(m.port(ss, 1), UsbSpeed::Super, StorageProtocol::Uas, std::string("sd") + char('b' + i));
  }
  return m.finish();
}

}  // namespace usbsat::testing
