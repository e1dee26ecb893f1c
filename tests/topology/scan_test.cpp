// The scan logic over an in-memory FakeSource: PCI hops, controllers and companions, ports and connectors,
// capable speed, UAS detection and the reason it is blocked, SCSI/block attribution, diagnostics.
#include <doctest/doctest.h>

#include <functional>

#include "tests/support/fake_source.hpp"
#include "tests/support/fake_system.hpp"
#include "tests/support/scan_rows.hpp"
#include "topology/model/drives.hpp"
#include "topology/model/errors.hpp"
#include "topology/scan/scan.hpp"

using namespace usbsat::topology;
using usbsat::testing::FakeSource;

namespace {
using namespace usbsat::testing::fake;
std::optional<Vertex> by_name(const Topology& t, std::string_view name) {
  return t.find_by_name(name);
}
}  // namespace

TEST_CASE("scan: PCI chain, controller identity and names from the hwdb") {
  FakeSource f = system();
  ScanConfig cfg;
  cfg.mountinfo_path = "/mi";
  const ScanResult r = scan(f, cfg);
  const Topology& t = r.topology;
  CHECK(r.diagnostics.empty());

  auto xhci = t.find(kXhci);
  REQUIRE(xhci);
  const auto& c = t[*xhci].as<ControllerInfo>();
  CHECK(c.kind == HcdKind::Xhci);
  CHECK(c.bdf == "0000:03:00.0");
  CHECK(c.vendor_id == 0x1b21);
  CHECK(c.subsystem_device_id == 0x8488);
  CHECK(c.model_name == "ASM1042 SuperSpeed USB Host Controller");
  CHECK(c.link.speed_gts == 5.0);
  const auto up = pcie_uplink(t, *xhci);
  REQUIRE(up.size() == 1);
  const auto& hop = t[up[0]].as<PciHopInfo>();
  CHECK(hop.bdf == "0000:00:1c.0");
  CHECK(hop.link == PcieLink{8.0, 1, 8.0, 4});
  REQUIRE(uplink(t, *xhci));
  CHECK(t[*uplink(t, *xhci)].kind == LinkKind::Pci);
  CHECK(t[*uplink(t, *xhci)].pcie.width == 1u);

  auto ehci = t.find(kEhci), uhci = t.find(kUhci);
  REQUIRE(ehci);
  REQUIRE(uhci);
  CHECK(t[*ehci].as<ControllerInfo>().companions == std::vector<std::string>{"0000:00:1d.0"});
  CHECK(t[*uhci].as<ControllerInfo>().companions == std::vector<std::string>{"0000:00:1d.7"});
  CHECK(pcie_uplink(t, *ehci).empty());
}

TEST_CASE("scan: ports, connectors, synthesized ports of old kernels") {
  FakeSource f = system();
  const ScanResult r = scan(f, {.mountinfo_path = ""});
  const Topology& t = r.topology;
  auto p = by_name(t, "usb2-port1");
  REQUIRE(p);
  const auto& port = t[*p].as<PortInfo>();
  CHECK(port.connect_type == "hotplug");
  CHECK(port.location == "0x00000001");
  CHECK(port.over_current_count == 0u);
  CHECK_FALSE(port.synthesized);
  REQUIRE(port.physical_location);
  CHECK(port.physical_location->panel == "back");
  CHECK(port.physical_location->dock == false);
  CHECK(port.peer == kXhci + "/usb1/1-0:1.0/usb1-port1");
  CHECK(port.hub_speed == UsbSpeed::Super);

  // 2 connectors on the xHCI (peered), 3 + 2 lone ones on EHCI/UHCI.
  int xhci_connectors = 0;
  for (const auto& c : t.connectors())
    if (c.controller == *t.find(kXhci)) {
      ++xhci_connectors;
      CHECK(c.usb2_port);
      CHECK(c.usb3_port);
    }
  CHECK(xhci_connectors == 2);
  CHECK(t.connectors().size() == 2 + 3 + 2);
  auto old = by_name(t, "usb3-port3");
  REQUIRE(old);
  CHECK(t[*old].as<PortInfo>().synthesized);
  CHECK(t[*old].as<PortInfo>().syspath == kEhci + "/usb3/3-0:1.0/usb3-port3");
}

TEST_CASE("scan: the Drives detail gives a drive's connector the attributes the Full scan gives it") {
  // The connector of sdb: usb1-port1 (its USB2 side) and usb2-port1 (the USB3 side, where the drive is).
  // A connector shows its USB2 side's connect_type, location and physical_location and the USB3 side's
  // where the USB2 side has none; the Drives detail reads the USB3 side only for what is missing.
  const std::string usb2_side = kXhci + "/usb1/1-0:1.0/usb1-port1";
  const std::string usb3_side = kXhci + "/usb2/2-0:1.0/usb2-port1";
  struct Variant {
    const char* name;
    std::function<void(FakeSource&)> change;
  };
  const Variant variants[] = {
      {"both sides alike", [](FakeSource&) {}},
      {"the sides differ",
       [&](FakeSource& f) {
         f.attr(usb3_side, "connect_type", "hardwired");
         f.attr(usb3_side, "location", "0x00000042");
         f.attr(usb3_side, "physical_location/panel", "front");
       }},
      {"only the USB3 side has them",
       [&](FakeSource& f) {
         f.remove(usb2_side, "connect_type")
             .remove(usb2_side, "location")
             .remove(usb2_side, "physical_location");
         f.attr(usb3_side, "location", "0x00000042");
       }},
  };
  for (const auto& v : variants) {
    CAPTURE(v.name);
    FakeSource f = system();
    v.change(f);
    const auto connector = [&](ScanDetail detail) {
      ScanConfig cfg;
      cfg.mountinfo_path = "";
      cfg.detail = detail;
      const ScanResult r = scan(f, cfg);
      for (const auto& d : summarize_drives(r.topology))
        if (d.dev == "sdb") return d.connector;
      return std::optional<ConnectorSummary>();
    };
    const auto full = connector(ScanDetail::Full), drives = connector(ScanDetail::Drives);
    REQUIRE(full);
    REQUIRE(drives);
    CHECK(drives->connect_type == full->connect_type);
    CHECK(drives->location == full->location);
    CHECK(drives->physical_location == full->physical_location);
    CHECK(full->location ==
          (std::string_view(v.name) == "only the USB3 side has them" ? "0x00000042" : "0x00000001"));
  }
}

TEST_CASE("scan: USB devices hang below their port with the negotiated speed, capable speed from bcdUSB") {
  FakeSource f = system();
  const ScanResult r = scan(f, {.mountinfo_path = ""});
  const Topology& t = r.topology;
  auto stick = by_name(t, "1-2");
  REQUIRE(stick);
  CHECK(t[*stick].kind == NodeKind::Device);
  const auto& d = t[*stick].as<UsbDeviceInfo>();
  CHECK(d.speed == UsbSpeed::High);
  CHECK(d.capable_speed == UsbSpeed::Super);
  CHECK_FALSE(d.capable_from_bos);
  CHECK(d.ports == std::vector<unsigned>{2});
  auto port = parent(t, *stick);
  REQUIRE(port);
  CHECK(t[*port].as<PortInfo>().name == "usb1-port2");
  REQUIRE(uplink(t, *stick));
  CHECK(t[*uplink(t, *stick)].kind == LinkKind::Usb);
  CHECK(t[*uplink(t, *stick)].usb_speed == UsbSpeed::High);

  auto enc = by_name(t, "2-1");
  REQUIRE(enc);
  const auto& e = t[*enc].as<UsbDeviceInfo>();
  CHECK(e.version == " 3.10");
  CHECK(e.bcd_usb == 0x0310);
  CHECK(e.capable_speed == UsbSpeed::Super);  // bcdUSB 3.1 without a BOS is NOT 10 Gb/s
  CHECK(e.max_power_ma == 896u);
  CHECK(e.rx_lanes == 1u);
  CHECK(e.power_control == "on");
  CHECK(e.vendor_name == "ASMedia Technology Inc.");
  CHECK(t[*parent(t, *enc)].as<PortInfo>().name == "usb2-port1");
}

TEST_CASE("scan: UAS capability, BOT binding and the quirk that forces it") {
  FakeSource f = system();
  const ScanResult r = scan(f, {.mountinfo_path = "/mi"});
  const Topology& t = r.topology;
  auto intf = t.find(kXhci + "/usb2/2-1/2-1:1.0");
  REQUIRE(intf);
  const auto& i = t[*intf].as<InterfaceInfo>();
  CHECK(i.driver == "usb-storage");
  CHECK(i.storage == StorageProtocol::Bot);
  CHECK(i.uas_capable);
  REQUIRE(i.alt_settings.size() == 2);
  CHECK(i.alt_settings[1].interface_protocol == 0x62);
  REQUIRE(i.uas_blocked_reason);
  CHECK(i.uas_blocked_reason->find("174c:55aa") != std::string::npos);
  CHECK(i.uas_blocked_reason->find("IGNORE_UAS") != std::string::npos);

  auto sdb = by_name(t, "sdb");
  REQUIRE(sdb);
  const auto& b = t[*sdb].as<BlockInfo>();
  CHECK(b.usb);
  CHECK(b.transport == "usb");
  CHECK(b.devnode == "/dev/sdb");
  CHECK(b.size_bytes == 512000u);
  CHECK(b.model == "2115");
  CHECK(b.vendor == "ASMT");
  CHECK(b.serial == "ENC123");
  CHECK(b.max_sectors_kb == 240u);
  CHECK(b.nr_requests == 2u);
  CHECK(b.rotational == true);
  CHECK(b.physical_block_size == 4096u);
  CHECK(b.hctl == "6:0:0:0");
  CHECK(b.queue_depth == 1u);
  REQUIRE(b.partitions.size() == 1);
  CHECK(b.partitions[0].mountpoints == std::vector<std::string>{"/media/back up"});
  auto scsi = parent(t, *sdb);
  REQUIRE(scsi);
  const auto& s = t[*scsi].as<ScsiDeviceInfo>();
  CHECK(s.host == "host6");
  CHECK(s.host_proc_name == "usb-storage");
  CHECK(s.queue_depth == 1u);
  CHECK(usb_device_of(t, *sdb) == by_name(t, "2-1"));
  CHECK(controller_of(t, *sdb) == t.find(kXhci));
}

TEST_CASE("scan: without the quirk a UAS-capable BOT binding has no visible reason, with uas it is UAS") {
  FakeSource f = system();
  f.dir("/sys/module/usb_storage/parameters", {{"quirks", ""}});
  auto r = scan(f, {.mountinfo_path = ""});
  auto intf = r.topology.find(kXhci + "/usb2/2-1/2-1:1.0");
  REQUIRE(intf);
  CHECK_FALSE(r.topology[*intf].as<InterfaceInfo>().uas_blocked_reason);

  FakeSource g = system();
  usb_interface(g, kXhci + "/usb2/2-1/2-1:1.0", "uas",
                {{"bInterfaceNumber", "00"},
                 {"bInterfaceClass", "08"},
                 {"bInterfaceSubClass", "06"},
                 {"bInterfaceProtocol", "62"},
                 {"bAlternateSetting", " 1"}});
  auto u = scan(g, {.mountinfo_path = ""});
  const auto& ui = u.topology[*u.topology.find(kXhci + "/usb2/2-1/2-1:1.0")].as<InterfaceInfo>();
  CHECK(ui.storage == StorageProtocol::Uas);
  CHECK(ui.uas_capable);
  CHECK(ui.alt_setting == 1);
  CHECK_FALSE(ui.uas_blocked_reason);
}

TEST_CASE("scan: why a UAS-capable drive runs Bulk-Only on a UHCI or OHCI companion, or at full speed") {
  // Three UAS-capable enclosures (152d:0578, not in the quirks parameter) bound to usb-storage: on the
  // EHCI's UHCI companion, on an OHCI, and at 12 Mb/s on the xHCI. The scanner finds the reason itself.
  FakeSource f = system();
  const std::string ohci = kRoot + "/0000:00:12.0";
  f.device({.syspath = ohci, .subsystem = "pci", .driver = "ohci-pci"},
           {{"class", "0x0c0310"}, {"vendor", "0x1002"}});
  usb_device(f, ohci + "/usb5",
             {{"busnum", "5"}, {"speed", "12"}, {"maxchild", "2"}, {"bDeviceClass", "09"}});
  auto enclosure = [&](const std::string& dev, const std::string& bus, const std::string& speed) {
    usb_device(f, dev,
               {{"busnum", bus},
                {"devnum", "2"},
                {"speed", speed},
                {"version", " 3.00"},
                {"idVendor", "152d"},
                {"idProduct", "0578"},
                {"bDeviceClass", "00"}});
    f.binary(dev, "descriptors", storage_descriptors(0x0300, true));
    const std::string name = dev.substr(dev.rfind('/') + 1);
    usb_interface(f, dev + "/" + name + ":1.0", "usb-storage",
                  {{"bInterfaceNumber", "00"},
                   {"bInterfaceClass", "08"},
                   {"bInterfaceSubClass", "06"},
                   {"bInterfaceProtocol", "50"},
                   {"bAlternateSetting", " 0"},
                   {"bNumEndpoints", "02"}});
  };
  enclosure(kUhci + "/usb4/4-1", "4", "12");
  enclosure(ohci + "/usb5/5-1", "5", "12");
  enclosure(kXhci + "/usb1/1-1", "1", "12");
  const Topology t = scan(f, {.mountinfo_path = ""}).topology;
  auto reason = [&](const std::string& intf) -> std::string {
    const auto v = t.find(intf);
    REQUIRE(v);
    const auto& i = t[*v].as<InterfaceInfo>();
    CHECK(i.storage == StorageProtocol::Bot);
    CHECK(i.uas_capable);
    return i.uas_blocked_reason.value_or("(none)");
  };
  CHECK(reason(kUhci + "/usb4/4-1/4-1:1.0") ==
        "host controller is uhci (USB 1.1, no scatter-gather): the uas driver cannot bind");
  CHECK(reason(ohci + "/usb5/5-1/5-1:1.0") ==
        "host controller is ohci (USB 1.1, no scatter-gather): the uas driver cannot bind");
  CHECK(reason(kXhci + "/usb1/1-1/1-1:1.0") ==
        "device runs at 12 Mb/s (USB 1.1): uas needs high speed or better");
}

TEST_CASE("scan: non-USB disks are roots with their transport, virtual disks are skipped unless asked") {
  FakeSource f = system();
  auto r = scan(f, {.mountinfo_path = ""});
  auto nvme = r.topology.find_by_name("nvme0n1");
  REQUIRE(nvme);
  CHECK_FALSE(parent(r.topology, *nvme));
  CHECK_FALSE(r.topology[*nvme].as<BlockInfo>().usb);
  CHECK(r.topology[*nvme].as<BlockInfo>().transport == "nvme");
  CHECK_FALSE(r.topology.find_by_name("loop0"));
  CHECK(block_devices(r.topology).size() == 2);

  FakeSource g = system();
  auto all = scan(g, {.mountinfo_path = "", .include_virtual_block = true});
  auto loop = all.topology.find_by_name("loop0");
  REQUIRE(loop);
  CHECK(all.topology[*loop].as<BlockInfo>().transport == "loop");
  CHECK_FALSE(all.topology[*loop].as<BlockInfo>().usb);
}

TEST_CASE("scan: one bad device is a diagnostic, a missing controller is tolerated, no source is fatal") {
  FakeSource f = system();
  usb_device(f, kXhci + "/usb2/bogus-name", {{"speed", "480"}});
  // A root hub whose controller directory is not a device (partial recording).
  usb_device(f, "/sys/devices/pci0000:00/0000:00:14.0/usb5",
             {{"busnum", "5"}, {"speed", "480"}, {"maxchild", "1"}});
  auto r = scan(f, {.mountinfo_path = ""});
  CHECK(r.diagnostics.size() == 2);
  bool bogus = false, missing = false;
  for (const auto& d : r.diagnostics) {
    bogus |= d.where.ends_with("bogus-name");
    missing |= d.where == "/sys/devices/pci0000:00/0000:00:14.0";
  }
  CHECK(bogus);
  CHECK(missing);
  auto usb5 = r.topology.find_by_name("usb5");
  REQUIRE(usb5);
  auto c = controller_of(r.topology, *usb5);
  REQUIRE(c);
  CHECK(r.topology[*c].as<ControllerInfo>().bdf == "0000:00:14.0");
  CHECK(r.topology.find_by_name("sdb"));  // the rest of the scan went on

  FakeSource broken;
  broken.fail_enumeration();
  CHECK_THROWS_AS(scan(broken, {}), ScanError);
}

TEST_CASE("scan: deterministic across runs") {
  // Two scans of the same sources lay the graph out identically: this vertex order, every time.
  for (int run = 0; run < 2; ++run) {
    FakeSource f = system();
    const auto r = scan(f, {.mountinfo_path = ""});
    std::string order;
    for (Vertex v = 0; v < r.topology.size(); ++v) order += std::string(node_name(r.topology[v])) + " ";
    CHECK(order ==
          "0000:00:1c.0 0000:03:00.0 usb1 usb1-port1 usb1-port2 1-2 usb2 usb2-port1 2-1 2-1:1.0 6:0:0:0 sdb "
          "usb2-port2 0000:00:1d.0 usb4 usb4-port1 usb4-port2 0000:00:1d.7 usb3 usb3-port1 usb3-port2 "
          "usb3-port3 "
          "nvme0n1 ");
  }
}

// ---- USB strings as lsusb shows them -------------------------------------------------------------------

TEST_CASE("scan: USB string descriptors lose surrounding whitespace, as lsusb shows them") {
  struct Row {
    std::string raw, shown;
  };
  const Row rows[] = {
      {" SanDisk 3.2Gen1", "SanDisk 3.2Gen1"},  // leading space, common on real devices
      {"USB  ", "USB"},
      {"\tCruzer Blade \r", "Cruzer Blade"},
      {"Plain", "Plain"},
      {"Two  inner  spaces", "Two  inner  spaces"},  // only the ends are trimmed
      {"   ", ""},
  };
  for (const auto& row : rows) {
    CAPTURE(row.raw);
    FakeSource f = system();
    usb_device(f, kXhci + "/usb1/1-2",
               {{"busnum", "1"},
                {"devnum", "3"},
                {"speed", "480"},
                {"version", " 3.00"},
                {"idVendor", "0781"},
                {"idProduct", "5591"},
                {"bDeviceClass", "00"},
                {"manufacturer", row.raw},
                {"product", row.raw},
                {"serial", row.raw}});
    const auto r = scan(f, {.mountinfo_path = ""});
    const auto& d = r.topology[*r.topology.find_by_name("1-2")].as<UsbDeviceInfo>();
    CHECK(d.manufacturer == row.shown);
    CHECK(d.product == row.shown);
    CHECK(d.serial == row.shown);
  }
}

// ---- implausible, unreadable and dangling values: unknown plus a diagnostic ----------------------------

namespace {
struct BadInput {
  const char* name;
  std::function<void(FakeSource&)> mutate;
  std::string where;                             ///< the diagnostic's `where`
  std::string says;                              ///< a part of its message
  std::function<void(const Topology&)> unknown;  ///< checks the value stayed unknown
};

const std::string kEnc = kXhci + "/usb2/2-1";
const std::string kLun = kEnc + "/2-1:1.0/host6/target6:0:0/6:0:0:0";
const std::string kSdb = kLun + "/block/sdb";
const std::string kPort = kXhci + "/usb2/2-0:1.0/usb2-port1";

const UsbDeviceInfo& usb_named(const Topology& t, std::string_view name) {
  return t[*t.find_by_name(name)].as<UsbDeviceInfo>();
}
const BlockInfo& sdb(const Topology& t) {
  return t[*t.find_by_name("sdb")].as<BlockInfo>();
}

void stick_speed(FakeSource& f, const std::string& speed) {
  f.attr(kXhci + "/usb1/1-2", "speed", speed);
}
void stick_speed_unknown(const Topology& t) {
  CHECK_FALSE(usb_named(t, "1-2").speed);
}
}  // namespace

/// A root hub whose maxchild is garbage: its port count is unknown, no phantom ports; the port a device
/// sits in is still there.
static void usb1_ports_only_occupied(const Topology& t) {
  const auto hub = t.find(kXhci + "/usb1");
  REQUIRE(hub);
  CHECK_FALSE(t[*hub].as<UsbDeviceInfo>().maxchild);
  CHECK(t.find_by_name("usb1-port1"));        // an empty port whose directory is there (issue 41: dropped)
  CHECK(t.find_by_name("usb1-port2"));        // 1-2 is plugged in there
  CHECK_FALSE(t.find_by_name("usb1-port3"));  // beyond the fixture's two ports: no phantom
  CHECK_FALSE(t.find_by_name("usb1-port255"));
}

TEST_CASE("scan: implausible, unreadable or dangling values stay unknown and are reported") {
  const BadInput rows[] = {
      {"speed inf", [](FakeSource& f) { stick_speed(f, "inf"); }, kXhci + "/usb1/1-2", "'speed' = 'inf'",
       stick_speed_unknown},
      {"speed huge", [](FakeSource& f) { stick_speed(f, "99999999999999999999"); }, kXhci + "/usb1/1-2",
       "'speed' = '99999999999999999999'", stick_speed_unknown},
      {"speed empty", [](FakeSource& f) { stick_speed(f, ""); }, kXhci + "/usb1/1-2", "'speed' = ''",
       stick_speed_unknown},
      {"speed garbage", [](FakeSource& f) { stick_speed(f, "fast\x01"); }, kXhci + "/usb1/1-2",
       "'speed' = 'fast\\x01'", stick_speed_unknown},
      {"speed unreadable", [](FakeSource& f) { f.unreadable(kXhci + "/usb1/1-2", "speed"); },
       kXhci + "/usb1/1-2", "'speed' could not be read", stick_speed_unknown},
      {"max_link_speed inf", [](FakeSource& f) { f.attr(kXhci, "max_link_speed", "inf GT/s"); }, kXhci,
       "'max_link_speed' = 'inf GT/s'",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kXhci)].as<ControllerInfo>().link.max_speed_gts); }},
      {"max_link_speed huge", [](FakeSource& f) { f.attr(kRp, "max_link_speed", "1e300 GT/s"); }, kRp,
       "'max_link_speed' = '1e300 GT/s'",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kRp)].as<PciHopInfo>().link.max_speed_gts); }},
      {"current_link_speed nan", [](FakeSource& f) { f.attr(kRp, "current_link_speed", "nan GT/s"); }, kRp,
       "'current_link_speed' = 'nan GT/s'",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kRp)].as<PciHopInfo>().link.speed_gts); }},
      {"disk size wraps at x512", [](FakeSource& f) { f.attr(kSdb, "size", "18446744073709551615"); }, kSdb,
       "'size' = '18446744073709551615'", [](const Topology& t) { CHECK_FALSE(sdb(t).size_bytes); }},
      {"disk size beyond 1 EiB", [](FakeSource& f) { f.attr(kSdb, "size", "4611686018427387904"); }, kSdb,
       "'size'", [](const Topology& t) { CHECK_FALSE(sdb(t).size_bytes); }},
      {"partition size wraps", [](FakeSource& f) { f.attr(kSdb + "/sdb1", "size", "36028797018963968"); },
       kSdb + "/sdb1", "'size'",
       [](const Topology& t) {
         REQUIRE(sdb(t).partitions.size() == 1);
         CHECK_FALSE(sdb(t).partitions[0].size_bytes);
       }},
      {"queue_depth -1", [](FakeSource& f) { f.attr(kLun, "queue_depth", "4294967295"); }, kLun,
       "'queue_depth' = '4294967295'",
       [](const Topology& t) {
         CHECK_FALSE(sdb(t).queue_depth);
         CHECK_FALSE(t[*t.find(kLun)].as<ScsiDeviceInfo>().queue_depth);
       }},
      {"peer dangling", [](FakeSource& f) { f.link(kPort, "peer", "/sys/devices/nowhere/usb9-port1"); },
       kPort, "not a scanned port",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kPort)].as<PortInfo>().peer); }},
      {"peer self", [](FakeSource& f) { f.link(kPort, "peer", kPort); }, kPort, "the port itself",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kPort)].as<PortInfo>().peer); }},
      {"PCI controller vendor unusable", [](FakeSource& f) { f.attr(kXhci, "vendor", "garbage"); }, kXhci,
       "PCI attribute 'vendor' missing",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kXhci)].as<ControllerInfo>().vendor_id); }},
      {"PCI controller class missing", [](FakeSource& f) { f.unreadable(kXhci, "class"); }, kXhci,
       "PCI attribute 'class' missing",
       [](const Topology& t) { CHECK_FALSE(t[*t.find(kXhci)].as<ControllerInfo>().class_code); }},
      {"maxchild -1 as unsigned", [](FakeSource& f) { f.attr(kXhci + "/usb1", "maxchild", "4294967295"); },
       kXhci + "/usb1", "'maxchild' = '4294967295' is not a hub's port count", usb1_ports_only_occupied},
      {"maxchild beyond 32 bits", [](FakeSource& f) { f.attr(kXhci + "/usb1", "maxchild", "99999999999"); },
       kXhci + "/usb1", "'maxchild' = '99999999999'", usb1_ports_only_occupied},
      {"maxchild negative", [](FakeSource& f) { f.attr(kXhci + "/usb1", "maxchild", "-1"); }, kXhci + "/usb1",
       "'maxchild' = '-1'", usb1_ports_only_occupied},
      {"PCI bridge missing",
       [](FakeSource& f) {
         // An xHCI behind a bridge whose directory is not a device (partial recording).
         const std::string x = kRoot + "/0000:00:1c.6/0000:07:00.0";
         f.device({.syspath = x, .subsystem = "pci", .driver = "xhci_hcd", .parent = kRoot},
                  {{"vendor", "0x1b21"}, {"device", "0x2142"}, {"class", "0x0c0330"}});
         usb_device(f, x + "/usb7",
                    {{"busnum", "7"}, {"speed", "480"}, {"maxchild", "0"}, {"bDeviceClass", "09"}});
       },
       kRoot + "/0000:00:1c.6", "not in the device tree",
       [](const Topology& t) { CHECK(t.find(kRoot + "/0000:00:1c.6/0000:07:00.0")); }},  // the scan goes on
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    const auto r = scan_bad_input(system(), row.mutate, row.where, row.says);
    row.unknown(r.topology);
  }
}

TEST_CASE("scan: a USB device whose root hub is missing is reported, not attached to a guess") {
  FakeSource f = system();
  // 5-1 below a usb5 directory that is no device: no root hub, no controller.
  usb_device(f, "/sys/devices/platform/dwc3.0/usb5/5-1",
             {{"busnum", "5"}, {"speed", "480"}, {"bDeviceClass", "00"}});
  const auto r = scan(f, {.mountinfo_path = ""});
  bool reported = false;
  for (const auto& d : r.diagnostics)
    reported |= d.message.find("/sys/devices/platform/dwc3.0/usb5") != std::string::npos;
  CHECK(reported);
  auto dev = r.topology.find_by_name("5-1");
  REQUIRE(dev);
  CHECK_FALSE(controller_of(r.topology, *dev));
}

TEST_CASE("scan: the source's read problems become diagnostics") {
  FakeSource f = system();
  f.unreadable(kPort, "connect_type");
  const auto r = scan(f, {.mountinfo_path = ""});
  bool found = false;
  for (const auto& d : r.diagnostics)
    found |= d.where == kPort && d.message.find("connect_type") != std::string::npos;
  CHECK(found);
}

TEST_CASE("scan: a mountinfo file that cannot be read is an error, the system's missing one a warning") {
  FakeSource f = system();
  CHECK_THROWS_AS(scan(f, {.mountinfo_path = "/nonexistent"}), ScanError);
  FakeSource g = system();
  const auto r = scan(g, {});  // FakeSource has no /proc/self/mountinfo
  bool warned = false;
  for (const auto& d : r.diagnostics)
    warned |= d.where == "/proc/self/mountinfo" && d.severity == Severity::Warning;
  CHECK(warned);
}

TEST_CASE("scan: an NVMe namespace head of native multipath is listed, with its path controller") {
  FakeSource f = system();
  const std::string ctrl = kRoot + "/0000:00:1d.0/0000:3d:00.0/nvme/nvme1";
  const std::string subsys = "/sys/devices/virtual/nvme-subsystem/nvme-subsys1";
  f.device({.syspath = kRoot + "/0000:00:1d.0/0000:3d:00.0", .subsystem = "pci", .driver = "nvme"},
           {{"class", "0x010802"}});
  f.device({.syspath = ctrl, .subsystem = "nvme"},
           {{"model", "Samsung SSD 990 PRO 2TB                 "}, {"serial", "S7DNNJ0W123456K     "}});
  f.device({.syspath = subsys, .subsystem = "nvme-subsystem"}, {{"model", "Samsung SSD 990 PRO 2TB"}});
  f.link(subsys, "nvme1", ctrl);
  f.device({.syspath = subsys + "/nvme1n1",
            .subsystem = "block",
            .devtype = "disk",
            .devnode = "/dev/nvme1n1",
            .parent = subsys},
           {{"size", "3907029168"}, {"dev", "259:3"}});
  const auto r = scan(f, {.mountinfo_path = ""});
  CHECK(r.diagnostics.empty());
  auto v = r.topology.find_by_name("nvme1n1");
  REQUIRE(v);
  const auto& b = r.topology[*v].as<BlockInfo>();
  CHECK(b.transport == "nvme");
  CHECK_FALSE(b.usb);
  CHECK(b.storage_controller == ctrl);
  CHECK(b.model == "Samsung SSD 990 PRO 2TB");
  CHECK(b.serial == "S7DNNJ0W123456K");
  CHECK(b.size_bytes == 3907029168ull * 512);
  CHECK(block_devices(r.topology).size() == 3);  // sdb, nvme0n1, nvme1n1 (loop0 still skipped)
}

TEST_CASE(
    "scan: a SoC's platform controllers get their kind from the driver and their chip from the device tree") {
  // A Rockchip RK3399's DWC3 (glue -> core -> xhci-hcd.0.auto, OF_COMPATIBLE on the first two only) and a
  // BCM2835's DWC2 whose compatible is only in of_node/compatible; neither root hub has `maxchild`.
  FakeSource f;
  const std::string glue = "/sys/devices/platform/usb@fe800000", core = glue + "/fe800000.usb",
                    host = core + "/xhci-hcd.0.auto";
  f.device({.syspath = glue,
            .subsystem = "platform",
            .driver = "dwc3-of-simple",
            .properties = {{"OF_COMPATIBLE_0", "rockchip,rk3399-dwc3"}, {"OF_COMPATIBLE_N", "1"}}});
  f.device({.syspath = core,
            .subsystem = "platform",
            .driver = "dwc3",
            .parent = glue,
            .properties = {{"OF_COMPATIBLE_0", "snps,dwc3"}, {"OF_COMPATIBLE_N", "1"}}});
  f.device({.syspath = host, .subsystem = "platform", .driver = "xhci-hcd", .parent = core});
  usb_device(f, host + "/usb1", {{"busnum", "1"}, {"devnum", "1"}, {"speed", "480"}, {"bDeviceClass", "09"}});
  usb_device(f, host + "/usb1/1-1",
             {{"busnum", "1"}, {"devnum", "2"}, {"speed", "480"}, {"idVendor", "0781"}});
  const std::string otg = "/sys/devices/platform/soc/fe980000.usb";
  f.device({.syspath = otg, .subsystem = "platform", .driver = "dwc2"});
  f.binary(otg, "of_node/compatible", std::string("brcm,bcm2835-usb\0", 17));
  usb_device(f, otg + "/usb2", {{"busnum", "2"}, {"devnum", "1"}, {"speed", "480"}, {"bDeviceClass", "09"}});
  const ScanResult r = scan(f, {.mountinfo_path = ""});
  const Topology& t = r.topology;

  const auto x = t.find(host);
  REQUIRE(x);
  const auto& c = t[*x].as<ControllerInfo>();
  CHECK(c.kind == HcdKind::Xhci);
  CHECK_FALSE(c.is_pci);
  CHECK(c.vendor_name == "Rockchip");
  CHECK(c.model_name == "RK3399 DWC3 (rockchip,rk3399-dwc3)");
  const auto o = t.find(otg);
  REQUIRE(o);
  CHECK(t[*o].as<ControllerInfo>().kind == HcdKind::Otg);
  CHECK(t[*o].as<ControllerInfo>().model_name == "BCM2835 DWC2 (brcm,bcm2835-usb)");
  // No maxchild: the port count stays unknown, not the one port a device was seen on.
  const auto rh = by_name(t, "usb1");
  REQUIRE(rh);
  CHECK_FALSE(t[*rh].as<UsbDeviceInfo>().maxchild);
}
