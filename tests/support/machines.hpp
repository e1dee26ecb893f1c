#pragma once
/// The named in-memory machines every test uses, built with tests/support/machine.hpp. One machine per
/// situation; a test that needs a variant builds it from the same vocabulary next to the test.
#include <cstdint>
#include <string>

#include "tests/support/machine.hpp"

namespace usbsat::testing {

/// The usb-storage quirk the workstation's JMicron enclosure is held on BOT by
/// (DoctorConfig::usb_storage_quirks).
inline constexpr const char* kWorkstationQuirks = "152d:0578:u";

/// Modern Intel workstation: chipset xHCI 00:14.0 (usb1 480M with 4 ports / usb2 10G with 3 ports, ports
/// 1-3 paired; usb1-port4 is USB 2.0 only), a USB3 hub pair (1-1 + 2-1) on connector usb1-port1, a UAS SSD
/// at 10G (sdb on 2-2), a quirked (kWorkstationQuirks) UAS-capable JMicron enclosure on BOT behind the hub
/// (sdc on 2-1.1), a USB2 stick behind the hub (sdd on 1-1.2), a USB3 stick at 480 in the USB2-only port
/// usb1-port4 (sde on 1-4), a low-speed keyboard (1-3); SATA sda and NVMe nvme0n1.
inline Topology workstation() {
  Machine m;
  m.system_disk({.name = "sda",
                 .size_bytes = 2000398934016,
                 .vendor = "ATA",
                 .model = "ST2000DM008-2FR102",
                 .serial = "ZFL1ABCD",
                 .queue_depth = 32,
                 .max_sectors_kb = 1280,
                 .max_hw_sectors_kb = 32767,
                 .rotational = true,
                 .mountpoints = {"/srv"}},
                "sata");
  m.system_disk({.name = "nvme0n1",
                 .size_bytes = 1000204886016,
                 .model = "Samsung SSD 980 PRO 1TB",
                 .serial = "S5GXNF0R123456",
                 .queue_depth = 1023,
                 .max_sectors_kb = 128,
                 .max_hw_sectors_kb = 128,
                 .mountpoints = {"/"}},
                "nvme");
  const auto x = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci,
                              {.vid = 0x8086,
                               .did = 0x7a60,
                               .vendor = "Intel Corporation",
                               .model = "Raptor Lake USB 3.2 Gen 2x2 (20 Gb/s) XHCI Host Controller"});
  const auto u1 = m.root_hub(x, 1, UsbSpeed::High, 4);
  const auto u2 = m.root_hub(x, 2, UsbSpeed::SuperPlus, 3);
  m.pair_ports(u1, u2, 3);
  m.port(Machine::port_of(u1, 1)).physical_location = PhysicalLocation{.panel = "back",
                                                                       .vertical_position = "upper",
                                                                       .horizontal_position = "left",
                                                                       .dock = false,
                                                                       .lid = false};
  m.port(Machine::port_of(u1, 4)).physical_location = PhysicalLocation{.panel = "front",
                                                                       .vertical_position = "center",
                                                                       .horizontal_position = "right",
                                                                       .dock = false,
                                                                       .lid = false};
  for (unsigned p : {1u, 3u}) m.port(Machine::port_of(u2, p)).state = "configured";
  for (unsigned p : {1u, 3u, 4u}) m.port(Machine::port_of(u1, p)).state = "configured";
  m.port(Machine::port_of(u2, 2)).state = "configured";

  // USB3 hub pair on connector 1.
  const auto h2 = m.hub(Machine::port_of(u1, 1),
                        {.vid = 0x05e3,
                         .pid = 0x0610,
                         .manufacturer = "GenesysLogic",
                         .product = "USB2.1 Hub",
                         .speed = UsbSpeed::High,
                         .bcd_usb = 0x210},
                        4);
  const auto h3 = m.hub(Machine::port_of(u2, 1),
                        {.vid = 0x05e3,
                         .pid = 0x0626,
                         .manufacturer = "GenesysLogic",
                         .product = "USB3.1 Hub",
                         .speed = UsbSpeed::Super,
                         .bcd_usb = 0x320,
                         .max_power_ma = 0},
                        4);
  m.pair_ports(h2, h3, 4);

  // Quirked UAS-capable enclosure behind the hub, on BOT.
  m.drive(Machine::port_of(h3, 1),
          {.vid = 0x152d,
           .pid = 0x0578,
           .manufacturer = "JMicron",
           .product = "USB to ATA/ATAPI Bridge",
           .serial = "0123456789AB",
           .speed = UsbSpeed::Super,
           .bcd_usb = 0x320,
           .max_power_ma = 896},
          {.name = "sdc",
           .size_bytes = 4000787030016,
           .vendor = "WDC",
           .model = "WD40EFRX-68N32N0",
           .serial = "0123456789AB",
           .queue_depth = 1,
           .rotational = true,
           .mountpoints = {"/mnt/backup"},
           .host = 7},
          {.driver = "usb-storage", .uas_alt = true, .uas_blocked_reason = "usb-storage quirks=152d:0578:u"});
  // USB2 stick behind the hub's USB2 half.
  m.drive(Machine::port_of(h2, 2),
          {.vid = 0x0781,
           .pid = 0x5567,
           .manufacturer = "SanDisk",
           .product = "Cruzer Blade",
           .serial = "4C530001230101117340",
           .speed = UsbSpeed::High,
           .bcd_usb = 0x200,
           .max_power_ma = 200},
          {.name = "sdd",
           .size_bytes = 16008609792,
           .vendor = "SanDisk",
           .model = "Cruzer Blade",
           .serial = "4C530001230101117340",
           .host = 8},
          {.driver = "usb-storage", .uas_alt = false});
  // UAS SSD at 10G directly on connector 2.
  m.drive(Machine::port_of(u2, 2),
          {.vid = 0x04e8,
           .pid = 0x4001,
           .manufacturer = "Samsung",
           .product = "PSSD T7",
           .serial = "S5SXNS0R700123",
           .speed = UsbSpeed::SuperPlus,
           .bcd_usb = 0x320,
           .capable = UsbSpeed::SuperPlus,
           .capable_from_bos = true,
           .max_power_ma = 896},
          {.name = "sdb",
           .size_bytes = 1000204886016,
           .vendor = "Samsung",
           .model = "PSSD T7",
           .serial = "S5SXNS0R700123",
           .queue_depth = 30,
           .max_sectors_kb = 1024,
           .max_hw_sectors_kb = 65535,
           .host = 6});
  // Low-speed keyboard on connector 3 (USB2 side).
  const auto kbd = m.device(Machine::port_of(u1, 3), {.vid = 0x046d,
                                                      .pid = 0xc31c,
                                                      .manufacturer = "Logitech",
                                                      .product = "USB Keyboard",
                                                      .speed = UsbSpeed::Low,
                                                      .bcd_usb = 0x110,
                                                      .max_power_ma = 90});
  m.interface(kbd, 0, {{0, 3, 1, 1, 1}}, "usbhid");
  m.interface(kbd, 1, {{0, 3, 0, 0, 1}}, "usbhid");
  // USB3 stick at 480 in the USB2-only port 4.
  m.drive(Machine::port_of(u1, 4),
          {.vid = 0x0781,
           .pid = 0x5581,
           .manufacturer = "SanDisk",
           .product = "Ultra",
           .serial = "4C531001550407117561",
           .speed = UsbSpeed::High,
           .bcd_usb = 0x320,
           .max_power_ma = 224},
          {.name = "sde",
           .size_bytes = 61530439680,
           .vendor = "SanDisk",
           .model = "Ultra",
           .serial = "4C531001550407117561",
           .host = 9},
          {.driver = "usb-storage", .uas_alt = false});
  return m.finish();
}

/// ASMedia ASM1042 add-in card behind a PCIe 2.0 x1 link from chipset root port 00:1c.4 (a Gen 3 port), two
/// USB 3.2 Gen 1 drives sharing it: sda on usb4-port1 (4-1) and sdb on usb4-port2 (4-2), with `proto`.
inline Topology asm1042_card(StorageProtocol proto = StorageProtocol::Uas) {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                            {.vid = 0x8086,
                             .did = 0xa33c,
                             .model = "Cannon Lake PCH PCI Express Root Port #5",
                             .link = {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 1}});
  const auto x = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                              {.vid = 0x1b21,
                               .did = 0x1042,
                               .vendor = "ASMedia Technology Inc.",
                               .model = "ASM1042 SuperSpeed USB Host Controller",
                               .link = pcie(5.0, 1)});
  const auto u3 = m.root_hub(x, 3, UsbSpeed::High, 2);
  const auto u4 = m.root_hub(x, 4, UsbSpeed::Super, 2);
  m.pair_ports(u3, u4, 2);
  const bool uas = proto == StorageProtocol::Uas;
  const Storage s{.driver = uas ? "uas" : "usb-storage", .uas_alt = true};
  m.drive(Machine::port_of(u4, 1),
          {.vid = 0x0bc2,
           .pid = 0x2322,
           .manufacturer = "Seagate",
           .product = "Expansion HDD",
           .serial = "NAAB1234",
           .speed = UsbSpeed::Super,
           .bcd_usb = 0x320,
           .max_power_ma = 896},
          {.name = "sda",
           .size_bytes = 5000981078016,
           .vendor = "Seagate",
           .model = "Expansion HDD",
           .serial = "NAAB1234",
           .queue_depth = uas ? 30u : 1u,
           .max_sectors_kb = 512,
           .max_hw_sectors_kb = 512,
           .rotational = true,
           .host = 4},
          s);
  m.drive(Machine::port_of(u4, 2),
          {.vid = 0x1058,
           .pid = 0x25a2,
           .manufacturer = "Western Digital",
           .product = "Elements 25A2",
           .serial = "575835314142",
           .speed = UsbSpeed::Super,
           .bcd_usb = 0x300,
           .max_power_ma = 896},
          {.name = "sdb",
           .size_bytes = 2000365289472,
           .vendor = "WD",
           .model = "Elements 25A2",
           .serial = "575835314142",
           .queue_depth = uas ? 30u : 1u,
           .max_sectors_kb = 512,
           .max_hw_sectors_kb = 512,
           .rotational = true,
           .host = 5},
          s);
  return m.finish();
}

/// Legacy ICH: EHCI 00:1d.7 (usb5) with UHCI companions 00:1d.0 (usb1) and 00:1d.1 (usb2); a USB 2.0 hub
/// (5-1) with four BOT sticks sdb..sde on its ports 1-4 (5-1.1 .. 5-1.4), a low-speed mouse on the UHCI
/// (1-2); SATA sda.
inline Topology legacy_ehci() {
  Machine m;
  m.system_disk({.name = "sda",
                 .size_bytes = 160041885696,
                 .vendor = "ATA",
                 .model = "HTS541616J9SA00",
                 .queue_depth = 31,
                 .max_sectors_kb = 512,
                 .max_hw_sectors_kb = 32767,
                 .rotational = true,
                 .mountpoints = {"/"}},
                "sata");
  const auto uh1 = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci,
                                {.vid = 0x8086,
                                 .did = 0x2830,
                                 .vendor = "Intel Corporation",
                                 .model = "82801H (ICH8 Family) USB UHCI Controller #1"},
                                {"0000:00:1d.7"});
  const auto uh2 = m.controller(std::nullopt, "0000:00:1d.1", HcdKind::Uhci,
                                {.vid = 0x8086,
                                 .did = 0x2831,
                                 .vendor = "Intel Corporation",
                                 .model = "82801H (ICH8 Family) USB UHCI Controller #2"},
                                {"0000:00:1d.7"});
  const auto eh = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci,
                               {.vid = 0x8086,
                                .did = 0x283a,
                                .vendor = "Intel Corporation",
                                .model = "82801H (ICH8 Family) USB2 EHCI Controller #1"},
                               {"0000:00:1d.0", "0000:00:1d.1"});
  const auto r1 = m.root_hub(uh1, 1, UsbSpeed::Full, 2);
  m.root_hub(uh2, 2, UsbSpeed::Full, 2);
  const auto r5 = m.root_hub(eh, 5, UsbSpeed::High, 4);
  const auto mouse = m.device(Machine::port_of(r1, 2), {.vid = 0x046d,
                                                        .pid = 0xc016,
                                                        .manufacturer = "Logitech",
                                                        .product = "Optical Mouse",
                                                        .speed = UsbSpeed::Low,
                                                        .bcd_usb = 0x110,
                                                        .max_power_ma = 100});
  m.interface(mouse, 0, {{0, 3, 1, 2, 1}}, "usbhid");
  const auto hub = m.hub(Machine::port_of(r5, 1),
                         {.vid = 0x05e3,
                          .pid = 0x0608,
                          .manufacturer = "GenesysLogic",
                          .product = "USB2.0 Hub",
                          .speed = UsbSpeed::High,
                          .bcd_usb = 0x200},
                         4);
  for (unsigned p = 1; p <= 4; ++p) {
    const std::string serial = "0000000000000" + std::to_string(p);
    m.drive(Machine::port_of(hub, p),
            {.vid = 0x1043,
             .pid = 0x8012,
             .manufacturer = "Generic",
             .product = "USB Flash Drive",
             .serial = serial,
             .speed = UsbSpeed::High,
             .bcd_usb = 0x200},
            {.name = std::string("sd") + static_cast<char>('a' + p),
             .size_bytes = 8 * kGB,
             .vendor = "Generic",
             .model = "Flash Disk",
             .serial = serial,
             .host = 6 + p},
            {.driver = "usb-storage", .uas_alt = false});
  }
  return m.finish();
}

/// Four USB 2.0 BOT sticks sdb..sde directly on root ports 1-4 of a USB 2.0 root hub usb1: of an EHCI
/// (00:1a.0, one shared bus) or of an xHCI's USB2 root hub (00:14.0, every root port its own link).
inline Topology four_sticks_on_root_ports(HcdKind kind) {
  Machine m;
  const auto c = m.controller(std::nullopt, kind == HcdKind::Ehci ? "0000:00:1a.0" : "0000:00:14.0", kind);
  const auto rh = m.root_hub(c, 1, UsbSpeed::High, 4);
  for (unsigned p = 1; p <= 4; ++p)
    m.drive(Machine::port_of(rh, p), {.speed = UsbSpeed::High},
            {.name = std::string("sd") + static_cast<char>('a' + p)},
            {.driver = "usb-storage", .uas_alt = false});
  return m.finish();
}

/// An integrated xHCI (00:14.0, "Sunrise Point-LP USB 3.0 xHCI") with a USB3 hub whose halves 1-1 ("USB2.1
/// Hub") and 2-1 ("USB3.1 Hub") sit on connector usb1-port1/usb2-port1. A Gen 1 UAS SSD sdb is on 2-1.1. The
/// stick sdc is a Gen 1 BOT stick on the USB3 half (2-1.2) when `stick_usb3`, else a USB 2.0 BOT stick on
/// the USB2 half (1-1.2).
inline Topology usb3_hub_ssd_and_stick(bool stick_usb3) {
  Machine m;
  const auto c =
      m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci, {.model = "Sunrise Point-LP USB 3.0 xHCI"});
  const auto hs = m.root_hub(c, 1, UsbSpeed::High, 2);
  const auto ss = m.root_hub(c, 2, UsbSpeed::Super, 2);
  m.pair_ports(hs, ss, 2);
  const auto hub2 = m.hub(Machine::port_of(hs, 1), {.product = "USB2.1 Hub", .speed = UsbSpeed::High}, 4);
  const auto hub3 = m.hub(Machine::port_of(ss, 1), {.product = "USB3.1 Hub", .speed = UsbSpeed::Super}, 4);
  m.pair_ports(hub2, hub3, 4);
  m.drive(Machine::port_of(hub3, 1), {.speed = UsbSpeed::Super}, {.name = "sdb"});
  const Storage bot{.driver = "usb-storage", .uas_alt = false};
  if (stick_usb3)
    m.drive(Machine::port_of(hub3, 2), {.speed = UsbSpeed::Super}, {.name = "sdc"}, bot);
  else
    m.drive(Machine::port_of(hub2, 2), {.speed = UsbSpeed::High}, {.name = "sdc"}, bot);
  return m.finish();
}

/// A PCIe switch card: root port 00:01.0 (PCIe 3.0 x4) -> switch upstream port 01:00.0 (x4) -> one downstream
/// port per controller (02:0N.0, PCIe 2.0 x1) -> a Renesas uPD720202 xHCI (0N+2:00.0, PCIe 2.0 x1, two
/// ports) with one Gen 1 UAS drive on usbM-port1 of its SuperSpeed root hub. `n` controllers (1-4), drives
/// sdb, sdc, ... on 4-1, 6-1, ...
inline Topology pcie_switch_card(unsigned n) {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:01.0",
                            {.vid = 0x8086, .did = 0x1901, .model = "root port", .link = pcie(8.0, 4)});
  const auto up = m.pci_hop(
      rp, "0000:01:00.0", {.vid = 0x10b5, .did = 0x8608, .model = "PEX 8608 upstream", .link = pcie(8.0, 4)});
  for (unsigned i = 0; i < n; ++i) {
    const auto down =
        m.pci_hop(up, "0000:02:0" + std::to_string(i + 1) + ".0",
                  {.vid = 0x10b5, .did = 0x8608, .model = "PEX 8608 downstream", .link = pcie(5.0, 1)});
    const auto c = m.controller(down, "0000:0" + std::to_string(3 + i) + ":00.0", HcdKind::Xhci,
                                {.vid = 0x1912, .did = 0x0015, .model = "uPD720202", .link = pcie(5.0, 1)});
    const auto hs = m.root_hub(c, 2 * i + 3, UsbSpeed::High, 2);
    const auto ss = m.root_hub(c, 2 * i + 4, UsbSpeed::Super, 2);
    m.pair_ports(hs, ss, 2);
    m.drive(Machine::port_of(ss, 1), {.speed = UsbSpeed::Super},
            {.name = std::string("sd") + static_cast<char>('b' + i)});
  }
  return m.finish();
}

/// An Intel-like chipset xHCI at `bdf`: usbB (480, ports 1-6; 1-4 paired with usbB+1, 5-6 USB 2.0 only) and
/// usbB+1 (`ss`, ports 1-4), B = `bus2`. No devices: tests plug their own.
struct XhciHost {
  std::string ctrl, usb2, usb3;  ///< syspaths of the controller, its USB 2.0 and its USB3 root hub
};
inline XhciHost intel_xhci(Machine& m, UsbSpeed ss = UsbSpeed::SuperPlus,
                           const std::string& bdf = "0000:00:14.0", unsigned bus2 = 1) {
  XhciHost h;
  h.ctrl = m.controller(std::nullopt, bdf, HcdKind::Xhci);
  h.usb2 = m.root_hub(h.ctrl, bus2, UsbSpeed::High, 6);
  h.usb3 = m.root_hub(h.ctrl, bus2 + 1, ss, 4);
  m.pair_ports(h.usb2, h.usb3, 4);
  return h;
}

/// Healthy: intel_xhci with a UAS SSD at 10 Gb/s (BOS says 10) on usb2-port1 (2-1, sda), nothing else.
inline Topology healthy_ssd() {
  Machine m;
  const auto h = intel_xhci(m);
  m.drive(Machine::port_of(h.usb3, 1),
          {.vid = 0x04e8,
           .pid = 0x4001,
           .product = "Portable SSD T7",
           .speed = UsbSpeed::SuperPlus,
           .capable = UsbSpeed::SuperPlus,
           .capable_from_bos = true},
          {.name = "sda", .queue_depth = 30, .max_sectors_kb = 1024, .max_hw_sectors_kb = 65535});
  return m.finish();
}

/// intel_xhci whose usb2-port1/usb3-port1 share a Type-C connector with the host router's usb4_port1, and a
/// USB4 device router 0-1 ("Dock") on it linked at `lane_gbps` x `lanes`. Returns usb3-port1, where the
/// dock's USB3 tunnel arrives. `displays`: connected DRM connectors on the same Type-C connector.
inline std::string usb4_dock_port(Machine& m, unsigned lane_gbps, unsigned lanes,
                                  std::vector<DisplayConnectorInfo> displays = {}) {
  const auto h = intel_xhci(m);
  const auto port2 = Machine::port_of(h.usb2, 1), port3 = Machine::port_of(h.usb3, 1);
  const auto host = m.router(std::nullopt, 0, 4, "Host",
                             {{.number = 1,
                               .link = Usb4LinkType::Usb4,
                               .connector = "port0",
                               .usb_ports = {port2, port3},
                               .displays = std::move(displays)}});
  m.router(host, 1, 4, "Dock", {}, lane_gbps, lanes);
  return port3;
}

inline const UsbDev kUsb4DockSsd{
    .vid = 0x04e8, .pid = 0x4001, .product = "Portable SSD T7", .speed = UsbSpeed::SuperPlus};

/// A USB4 dock (usb4_dock_port) linked at `lane_gbps` x `lanes` (20 Gb/s x 2: what both ends can do); a UAS
/// SSD on usb3-port1 (2-1, sda) rides the dock's USB3 tunnel.
inline Topology usb4_dock(unsigned lane_gbps = 20, unsigned lanes = 2) {
  Machine m;
  m.drive(usb4_dock_port(m, lane_gbps, lanes), kUsb4DockSsd, {.name = "sda"});
  return m.finish();
}

/// usb4_dock with two 4K monitors on the dock (card0-DP-1 "DELL U2720Q" with an EDID at 10 bits per colour,
/// 15.9975 Gb/s; card0-DP-2 without one, the 17.28 Gb/s reservation): writes get (36 - 33.2775) x 0.8 = 2.178
/// Gb/s of the USB3 tunnel, reads its adapter's 8 Gb/s.
inline Topology usb4_dock_displays() {
  Machine m;
  const DisplayConnectorInfo dp1{"/sys/devices/pci0000:00/0000:00:02.0/drm/card0/card0-DP-1", "card0-DP-1",
                                 true, EdidInfo{EdidMode{3840, 2160, 533250}, "DELL U2720Q", 10}};
  const DisplayConnectorInfo dp2{"/sys/devices/pci0000:00/0000:00:02.0/drm/card0/card0-DP-2", "card0-DP-2",
                                 true, std::nullopt};
  m.drive(usb4_dock_port(m, 20, 2, {dp1, dp2}), kUsb4DockSsd, {.name = "sda"});
  return m.finish();
}

/// usb4_dock with a 10 Gb/s USB3 hub on the dock (2-1, on usb3-port1) carrying two UAS SSDs at 10 Gb/s (2-1.1
/// sda, 2-1.2 sdb): both ride the dock's USB3 tunnel; usb3-port2..4 of the host are free.
inline Topology usb4_dock_hub() {
  Machine m;
  const auto hub =
      m.hub(usb4_dock_port(m, 20, 2),
            {.vid = 0x2109, .pid = 0x0822, .product = "USB3.2 Hub", .speed = UsbSpeed::SuperPlus}, 4);
  m.drive(Machine::port_of(hub, 1), kUsb4DockSsd, {.name = "sda"});
  m.drive(Machine::port_of(hub, 2), kUsb4DockSsd, {.name = "sdb"});
  return m.finish();
}

/// The links and hub of usb4_hub_chain.
struct HubChain {
  unsigned dock_gbps = 20, dock_lanes = 2;  ///< the dock's link 0-1
  unsigned hub_gbps = 20, hub_lanes = 1;    ///< the hub router's link 0-301 (one lane: the cable)
  UsbSpeed dock_hub = UsbSpeed::SuperPlus;  ///< the dock's USB3 hub, where the hub router's tunnel arrives
};

/// Two router hops: usb4_dock_port's dock 0-1 with a USB3 hub (2-1) carrying a UAS SSD (2-1.1, sda), and a
/// USB4 hub router 0-301 (on the dock's port 3) whose own 10 Gb/s USB3 hub (2-1.4, on the dock hub's port 4)
/// carries a UAS SSD (2-1.4.1, sdb): sdb rides both links' USB3 tunnels.
inline Topology usb4_hub_chain(const HubChain& c = {}) {
  Machine m;
  const auto dock_hub =
      m.hub(usb4_dock_port(m, c.dock_gbps, c.dock_lanes),
            {.vid = 0x2109, .pid = 0x0822, .product = "USB3.2 Hub", .speed = c.dock_hub}, 4);
  m.router("/sys/devices/pci0000:00/0000:00:0d.2/domain0/0-0/0-1", 0x301, 4, "Hub", {}, c.hub_gbps,
           c.hub_lanes);
  const auto hub_hub =
      m.hub(Machine::port_of(dock_hub, 4),
            {.vid = 0x05e3, .pid = 0x0625, .product = "USB3.2 Hub", .speed = UsbSpeed::SuperPlus}, 4);
  m.drive(Machine::port_of(dock_hub, 1), kUsb4DockSsd, {.name = "sda"});
  m.drive(Machine::port_of(hub_hub, 1), kUsb4DockSsd, {.name = "sdb"});
  return m.finish();
}

/// The Thunderbolt 3 dock of tb3_dock: its xHCI's PCIe link and SuperSpeed ports, how many such docks, the
/// Thunderbolt link, and whether the kernel marked the dock's functions `removable`.
struct Tb3Dock {
  PcieLink xhci{5.0, 1, 5.0, 1};         ///< the dock xHCI's link (an FL1100: PCIe 2.0 x1)
  unsigned ss_ports = 4;                 ///< SuperSpeed ports of its USB3 root hub (5 Gb/s)
  unsigned docks = 1;                    ///< docks on the host's ports 1, 3 (02:01.0, 02:04.0)
  unsigned lane_gbps = 20, lanes = 2;    ///< the Thunderbolt link
  std::optional<bool> removable = true;  ///< the kernel's mark on the dock's PCIe switch
};

/// A discrete Alpine Ridge host (root port 00:1c.0 PCIe 3.0 x4 -> switch 01:00.0 -> downstream ports 02:00.0
/// to the NHI 03:00.0, 02:01.0 and 02:04.0 to the PCIe tunnels) with Thunderbolt 3 dock routers 0-1 (and
/// 0-3): each dock's switch (upstream port, tunnelled link 2.5 GT/s x4) leads to its own xHCI with a UAS SSD
/// on its SuperSpeed ports 1 and 2 (dock 0-1: sda, sdb; dock 0-3: sdc, sdd).
inline Topology tb3_dock(const Tb3Dock& d = {}) {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.0", {.model = "root port", .link = pcie(8.0, 4)});
  const auto up = m.pci_hop(rp, "0000:01:00.0", {.model = "DSL6540 Bridge", .link = pcie(8.0, 4)});
  m.pci_hop(up, "0000:02:00.0", {.model = "DSL6540 Bridge", .link = pcie(2.5, 4)});
  const auto host = m.router(std::nullopt, 0, 3, "Host");
  std::get<RouterInfo>(m.node(host).data).nhi = up + "/0000:02:00.0/0000:03:00.0";
  const char* downs[] = {"0000:02:01.0", "0000:02:04.0"};
  const char* buses[][3] = {{"0000:05:00.0", "0000:06:01.0", "0000:07:00.0"},
                            {"0000:0a:00.0", "0000:0b:01.0", "0000:0c:00.0"}};
  const std::uint64_t routes[] = {1, 3};
  for (unsigned i = 0; i < d.docks && i < 2; ++i) {
    const auto down = m.pci_hop(up, downs[i], {.model = "DSL6540 Bridge", .link = pcie(2.5, 4)});
    const auto entry = m.pci_hop(down, buses[i][0], {.model = "JHL7440 Bridge", .link = pcie(2.5, 4)});
    std::get<PciHopInfo>(m.node(entry).data).removable = d.removable;
    const auto dock_down = m.pci_hop(entry, buses[i][1], {.model = "JHL7440 Bridge", .link = d.xhci});
    const auto c = m.controller(dock_down, buses[i][2], HcdKind::Xhci,
                                {.vid = 0x1b73, .did = 0x1100, .model = "FL1100", .link = d.xhci});
    const auto hs = m.root_hub(c, 3 + 2 * i, UsbSpeed::High, d.ss_ports);
    const auto ss = m.root_hub(c, 4 + 2 * i, UsbSpeed::Super, d.ss_ports);
    m.pair_ports(hs, ss, d.ss_ports);
    m.router(host, routes[i], 3, "Dock", {}, d.lane_gbps, d.lanes);
    for (unsigned k = 0; k < 2 && k < d.ss_ports; ++k)
      m.drive(Machine::port_of(ss, k + 1), {.speed = UsbSpeed::Super},
              {.name = std::string("sd") + static_cast<char>('a' + 2 * i + k)});
  }
  return m.finish();
}

}  // namespace usbsat::testing
