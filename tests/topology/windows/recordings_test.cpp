// The Windows recordings in tests/fixtures/windows through the portable builder: the controllers, ports,
// connectors and drives each must give (asserted here), and the views the report renderers make of them
// (golden files tests/fixtures/golden/windows-<fixture>.*).
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "report/drives_view.hpp"
#include "report/ports_view.hpp"
#include "report/tree.hpp"
#include "tests/support/golden.hpp"
#include "topology/model/drives.hpp"
#include "topology/model/errors.hpp"
#include "topology/windows/builder.hpp"
#include "topology/windows/snapshot_json.hpp"

using namespace usbsat;
using namespace usbsat::topology;
using usbsat::testing::check_golden;

namespace {

nlohmann::json recording(const std::string& name) {
  std::ifstream f(std::string(USBSAT_SOURCE_DIR) + "/tests/fixtures/windows/" + name + ".json");
  REQUIRE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  auto j = nlohmann::json::parse(ss.str());
  REQUIRE(j.at("format") == "usbsat-recording");
  REQUIRE(j.at("version") == 1);
  REQUIRE(j.at("platform") == "windows");
  return j.at("data");
}

const DriveSummary& drive(const std::vector<DriveSummary>& ds, const std::string& name) {
  for (const auto& d : ds)
    if (d.dev == name) return d;
  FAIL("no drive " << name);
  throw 0;
}

void check_views(const std::string& name, const ScanResult& r) {
  const report::ViewInput in{r.topology, r.diagnostics};
  const std::string base = "windows-" + name;
  check_golden(base + ".topo.txt", report::render_topology_text(in));
  check_golden(base + ".drives.txt", report::render_drives_text(in));
  check_golden(base + ".drives.json", report::render_drives_json(in));
  check_golden(base + ".ports.txt", report::render_ports_text(in));
}

}  // namespace

TEST_CASE(
    "windows recording intel-xhci-desktop: companion ports, a USB3 hub, UAS, BOT, UAS-capable on USBSTOR") {
  const auto r = windows::build_topology(recording("intel-xhci-desktop"));
  CHECK(r.diagnostics.empty());
  const auto& t = r.topology;
  REQUIRE(t.controllers().size() == 1);
  const auto& c = t[t.controllers().front()].as<ControllerInfo>();
  CHECK(c.bdf == "0000:00:14.0");
  CHECK(c.kind == HcdKind::Xhci);
  CHECK(c.vendor_id == 0x8086);
  CHECK(c.device_id == 0xa12f);
  CHECK(c.driver == "USBXHCI");
  // One Windows root hub, split into the USB2 bus (ports 1-16) and the SuperSpeed bus (ports 17-26).
  const auto usb1 = t.find_by_name("usb1"), usb2 = t.find_by_name("usb2");
  REQUIRE(usb1);
  REQUIRE(usb2);
  CHECK(t[*usb1].as<UsbDeviceInfo>().speed == UsbSpeed::High);
  CHECK(t[*usb2].as<UsbDeviceInfo>().speed == UsbSpeed::Super);
  CHECK(children(t, *usb1).size() == 16);
  CHECK(children(t, *usb2).size() == 10);
  // Companion ports are peers: 16 USB2 connectors, 10 of them with a SuperSpeed side.
  const auto p1 = t.find_by_name("usb1-port1");
  REQUIRE(p1);
  const auto ci = connector_of(t, *p1);
  REQUIRE(ci);
  const auto conn = summarize_connector(t, *ci);
  CHECK(conn.usb2_port == "usb1-port1");
  CHECK(conn.usb3_port == "usb2-port17");
  CHECK(t.connectors().size() == 20);  // 16 on the root hub, 4 on the USB3 hub (its halves paired)
  // The USB3 hub's halves (1-1 on the USB2 side, 2-17 on the SuperSpeed side) are paired.
  const auto h2 = t.find_by_name("1-1"), h3 = t.find_by_name("2-17");
  REQUIRE(h2);
  REQUIRE(h3);
  CHECK(t[*h2].kind == NodeKind::Hub);
  CHECK(t[*h2].as<UsbDeviceInfo>().hub_peer == t[*h3].syspath());

  const auto ds = summarize_drives(t);
  REQUIRE(ds.size() == 5);
  const auto& sys = drive(ds, "PhysicalDrive0");
  CHECK_FALSE(sys.usb);
  CHECK(sys.transport == "sata");
  CHECK(sys.mountpoints == std::vector<std::string>{"C:\\"});
  const auto& t5 = drive(ds, "PhysicalDrive1");
  CHECK(t5.devnode == "\\\\.\\PhysicalDrive1");
  CHECK(t5.protocol == StorageProtocol::Uas);
  CHECK(t5.driver == "UASPStor");
  CHECK(t5.speed == UsbSpeed::Super);
  CHECK(t5.capable_speed == UsbSpeed::SuperPlus);
  CHECK(t5.port_path == "2-18");
  REQUIRE(t5.connector);
  CHECK(t5.connector->id == "usb1-port2");
  CHECK(t5.vid_pid == "04e8:61f5");
  const auto& enclosure = drive(ds, "PhysicalDrive2");
  CHECK(enclosure.protocol == StorageProtocol::Bot);
  CHECK(enclosure.uas_capable == true);
  CHECK_FALSE(enclosure.uas_blocked_reason);  // Windows 10 shows no reason
  CHECK(enclosure.hub_chain == std::vector<std::string>{"2-17"});
  const auto& stick = drive(ds, "PhysicalDrive3");
  CHECK(stick.protocol == StorageProtocol::Bot);
  CHECK(stick.uas_capable == false);
  CHECK(stick.speed == UsbSpeed::High);
  CHECK(stick.hub_chain == std::vector<std::string>{"1-1"});
  const auto& ultra = drive(ds, "PhysicalDrive4");
  CHECK(ultra.speed == UsbSpeed::High);
  CHECK(ultra.capable_speed == UsbSpeed::Super);
  REQUIRE(ultra.connector);
  CHECK(ultra.connector->speed_class == ConnectorClass::Usb2Only);
  check_views("intel-xhci-desktop", r);
}

TEST_CASE("windows recording asm1042-card: two UAS drives behind one PCIe 2.0 x1 link, one on the chipset") {
  const auto r = windows::build_topology(recording("asm1042-card"));
  CHECK(r.diagnostics.empty());
  const auto& t = r.topology;
  REQUIRE(t.controllers().size() == 2);
  const auto& asm1042 = t[t.controllers().back()].as<ControllerInfo>();
  CHECK(asm1042.bdf == "0000:03:00.0");
  CHECK(asm1042.vendor_id == 0x1b21);
  CHECK(asm1042.link.speed_gts == 5.0);
  CHECK(asm1042.link.width == 1u);
  const auto uplink = summarize_pcie_uplink(t, t.controllers().back());
  REQUIRE(uplink.size() == 1);  // the root port; the controller's own link is asm1042.link
  CHECK(uplink[0].pci == "0000:00:1c.4");
  CHECK(uplink[0].link.speed_gts == 5.0);
  CHECK(uplink[0].link.max_speed_gts == 8.0);
  const auto ds = summarize_drives(t);
  REQUIRE(ds.size() == 4);
  CHECK(drive(ds, "PhysicalDrive0").transport == "nvme");
  const auto& passport =
      drive(ds, "PhysicalDrive3");  // on the chipset's SuperSpeed port 19 (USB2 companion 3)
  REQUIRE(passport.controller);
  CHECK(passport.controller->pci == "0000:00:14.0");
  CHECK(passport.rotational == true);
  CHECK(passport.capable_speed == UsbSpeed::Super);
  for (const char* n : {"PhysicalDrive1", "PhysicalDrive2"}) {
    const auto& d = drive(ds, n);
    CHECK(d.protocol == StorageProtocol::Uas);
    REQUIRE(d.controller);
    CHECK(d.controller->pci == "0000:03:00.0");
    CHECK(d.pcie_uplink.size() == 1);
  }
  CHECK(drive(ds, "PhysicalDrive2").capable_speed == UsbSpeed::SuperPlus);
  check_views("asm1042-card", r);
}

TEST_CASE("windows recording win7-ehci: EHCI with UHCI companions, no UAS driver on Windows 7") {
  const auto r = windows::build_topology(recording("win7-ehci"));
  CHECK(r.diagnostics.empty());
  const auto& t = r.topology;
  REQUIRE(t.controllers().size() == 4);
  const auto ehci = t.find("/windows/pci/0000:00:1d.7");
  REQUIRE(ehci);
  const auto& e = t[*ehci].as<ControllerInfo>();
  CHECK(e.kind == HcdKind::Ehci);
  CHECK(e.companions == std::vector<std::string>{"0000:00:1d.0", "0000:00:1d.1", "0000:00:1d.2"});
  const auto uhci = t.find("/windows/pci/0000:00:1d.0");
  REQUIRE(uhci);
  CHECK(t[*uhci].as<ControllerInfo>().kind == HcdKind::Uhci);
  // No port connector properties before Windows 8: every connector is a lone USB2 port.
  for (const auto& c : t.connectors()) CHECK_FALSE(c.usb3_port);
  const auto ds = summarize_drives(t);
  REQUIRE(ds.size() == 3);
  const auto& enclosure = drive(ds, "PhysicalDrive1");
  CHECK(enclosure.protocol == StorageProtocol::Bot);
  CHECK(enclosure.uas_capable == true);
  CHECK(enclosure.speed == UsbSpeed::High);
  CHECK(enclosure.capable_speed == UsbSpeed::Super);  // bcdUSB 3.00, no V2 flags on Windows 7
  REQUIRE(enclosure.uas_blocked_reason);
  CHECK(*enclosure.uas_blocked_reason ==
        "Windows 6.1.7601 has no UAS driver (UASPStor ships with Windows 8 and later)");
  CHECK_FALSE(drive(ds, "PhysicalDrive0").rotational);  // no seek-penalty query on Windows 7: unknown
  check_views("win7-ehci", r);
}

TEST_CASE("windows snapshot JSON: every recording reads back to the same snapshot") {
  for (const char* name : {"intel-xhci-desktop", "asm1042-card", "win7-ehci"}) {
    CAPTURE(name);
    std::vector<Diagnostic> diags;
    const auto s = windows::snapshot_from_json(recording(name), diags);
    CHECK(diags.empty());
    CHECK_FALSE(s.controllers.empty());
    std::vector<Diagnostic> again_diags;
    const auto again = windows::snapshot_from_json(windows::snapshot_to_json(s), again_diags);
    CHECK(again_diags.empty());
    CHECK(again == s);
  }
}

TEST_CASE("windows snapshot JSON: wrong types are unknown values with a warning, never fatal") {
  auto data = recording("asm1042-card");
  data["controllers"][1]["pci"]["location_info"] = 42;                              // not a string
  data["controllers"][1]["upstream"][0]["link"]["current_speed"] = -1;              // negative
  data["disks"][1]["size_bytes"] = "big";                                           // not a number
  data["controllers"][1]["root_hub"]["ports"][2]["device"] = {{"instance_id", 7}};  // not an array
  const auto r = windows::build_topology(data);
  std::vector<std::string> where;
  for (const auto& d : r.diagnostics) where.push_back(d.where);
  CHECK(std::find(where.begin(), where.end(), "recording/controllers/1/pci/location_info") != where.end());
  CHECK(std::find(where.begin(), where.end(), "recording/controllers/1/upstream/0/link/current_speed") !=
        where.end());
  CHECK(std::find(where.begin(), where.end(), "recording/disks/1/size_bytes") != where.end());
  CHECK(std::find(where.begin(), where.end(), "recording/controllers/1/root_hub/ports/2/device") !=
        where.end());
  // The ASMedia controller is still there, named by its instance ID (no PCI location any more), and the
  // T5 whose device entry was unreadable is a USB disk shown on its own.
  const auto ds = summarize_drives(r.topology);
  REQUIRE(ds.size() == 4);
  CHECK_FALSE(ds[1].size_bytes);
  CHECK_FALSE(ds[1].usb);
  CHECK(r.topology.controllers().size() == 2);
}

TEST_CASE("windows snapshot JSON: data that is not an object is an unusable recording") {
  CHECK_THROWS_AS(windows::build_topology(nlohmann::json::array()), ScanError);
  CHECK_THROWS_AS(windows::build_topology(nlohmann::json("windows")), ScanError);
  const auto empty = windows::build_topology(nlohmann::json::object());
  CHECK(empty.topology.size() == 0);
  CHECK(empty.diagnostics.empty());
}

TEST_CASE("windows builder: missing properties stay unknown") {
  windows::WindowsSnapshot s;
  windows::HostController hc;
  hc.pci.instance_id = "PCI\\VEN_1B21&DEV_1242\\4&1&0&00E4";
  hc.pci.service = "USBXHCI";
  hc.root_hub = windows::UsbHub{};
  windows::UsbPort p;
  p.number = 1;
  p.speed = 3;
  p.companion_port = 9;  // no such port
  windows::UsbDevice dev;
  dev.instance_id = "USB\\VID_152D&PID_0583\\0123456789AB";
  dev.service = "UASPStor";  // no descriptors at all
  p.device.push_back(dev);
  hc.root_hub->ports.push_back(p);
  s.controllers.push_back(hc);
  windows::Disk d;
  d.device_number = 3;
  d.ancestors = {"USB\\VID_152D&PID_0583\\0123456789AB"};
  d.bus_type = 7;
  s.disks.push_back(d);
  const auto r = windows::build_topology(s);
  CHECK(r.diagnostics.size() == 2);  // no PCI location; companion port 9 not scanned
  const auto ds = summarize_drives(r.topology);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].dev == "PhysicalDrive3");
  CHECK(ds[0].usb);
  CHECK(ds[0].protocol == StorageProtocol::Uas);
  CHECK(ds[0].speed == UsbSpeed::Super);
  CHECK_FALSE(ds[0].vid_pid);
  CHECK_FALSE(ds[0].size_bytes);
  REQUIRE(ds[0].controller);
  CHECK(ds[0].controller->kind == HcdKind::Xhci);  // from the service when the class code is unknown
}

namespace {

/// ESC and an OSC title, a C1 CSI, right-to-left override, DEL, invalid UTF-8, backspace, carriage return.
const std::string kHostile =
    "\x1b]0;pwned\x07\xc2\x9b"
    "31m\xe2\x80\xae\x7f\xff\xfe\x08\r";

/// Every string under `j` but the descriptors (hex bytes, parsed and never shown) gets kHostile appended.
void poison(nlohmann::json& j) {
  if (j.is_string()) j = j.get<std::string>() + kHostile;
  if (j.is_array())
    for (auto& e : j) poison(e);
  if (j.is_object())
    for (auto& [k, v] : j.items())
      if (!k.ends_with("_descriptor")) poison(v);
}

/// The first raw control character (C0 but newline and tab, DEL, C1), bidi override or invalid UTF-8 byte
/// of `text`, described; "" when clean.
std::string first_unsafe(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::string at = " at " + std::to_string(i) + ": " + text.substr(i > 30 ? i - 30 : 0, 30);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return "control byte" + at;
    if (c < 0x80) continue;
    const std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (n == 0 || i + n > text.size()) return "invalid UTF-8" + at;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return "invalid UTF-8" + at;
    if (c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) return "C1 control" + at;
    if (text.compare(i, 2, "\xe2\x80") == 0 && static_cast<unsigned char>(text[i + 2]) >= 0xaa &&
        static_cast<unsigned char>(text[i + 2]) <= 0xae)
      return "bidi override" + at;
    i += n - 1;
  }
  return "";
}

}  // namespace

TEST_CASE("windows: hostile bytes in every string of a recording reach no text view raw") {
  // The live collector's snapshot and a recording's both go through build_topology(), which sanitises every
  // string (safe_snapshot.hpp). A recording's JSON strings are UTF-8 (tests/cli/hostile_strings.py covers
  // those through the command line); here the snapshot also carries invalid UTF-8, as a collector could.
  for (const char* name : {"intel-xhci-desktop", "asm1042-card", "win7-ehci"}) {
    CAPTURE(name);
    auto data = recording(name);
    poison(data);
    std::vector<Diagnostic> diags;
    const auto r = windows::build_topology(windows::snapshot_from_json(data, diags), diags);
    const report::ViewInput in{r.topology, r.diagnostics};
    CHECK_FALSE(summarize_drives(r.topology).empty());
    for (const auto& text :
         {report::render_topology_text(in), report::render_drives_text(in), report::render_ports_text(in)}) {
      CHECK_MESSAGE(first_unsafe(text).empty(), first_unsafe(text));
      CHECK(text.find("\\x1b]0;pwned") != std::string::npos);  // shown, escaped: the check is not vacuous
    }
    for (const auto& d : r.diagnostics) CHECK(first_unsafe(d.where + d.message).empty());
  }
}
