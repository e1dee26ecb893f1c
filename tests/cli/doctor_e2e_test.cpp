// End to end: `usbsat doctor --json` under umockdev on the generated sysfs scenarios (tests/fixtures),
// asserting the findings each scenario was built to show and the exit code. Exits 77 (SKIP) without the
// umockdev preload.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <stdlib.h>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"

namespace {

struct Run {
  int exit_code = -1;
  std::string out;
};

/// Run usbsat with `args` against the sysfs tree in `dir` through with-fixture.sh; stdout captured, stderr
/// dropped.
Run usbsat_in(const std::string& dir, const std::string& args) {
  const std::string cmd = std::string(USBSAT_SOURCE_DIR) + "/tests/fixtures/with-fixture.sh " + dir + " -- " +
                          USBSAT_BINARY_DIR + "/src/usbsat " + args + " 2>/dev/null";
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (r.exit_code == 77) std::exit(77);  // no umockdev preload here: skip honestly
  return r;
}

/// The same against generated scenario `name`.
Run usbsat_on(const std::string& name, const std::string& args) {
  return usbsat_in(std::string(USBSAT_FIXTURES_DIR) + "/" + name, args);
}

using Key = std::pair<std::string, std::string>;  // (id, first device)

std::set<Key> keys(const nlohmann::json& doc) {
  std::set<Key> out;
  for (const auto& f : doc.at("findings")) out.emplace(f.at("id"), f.at("devices").at(0));
  return out;
}

const nlohmann::json& finding(const nlohmann::json& doc, const std::string& id,
                              const std::string& first_device) {
  for (const auto& f : doc.at("findings"))
    if (f.at("id") == id && f.at("devices").at(0) == first_device) return f;
  FAIL("no finding ", id, " for ", first_device);
  static const nlohmann::json none;
  return none;
}

nlohmann::json doctor_json(const std::string& scenario, int expected_exit) {
  const Run r = usbsat_on(scenario, "doctor --json");
  CHECK(r.exit_code == expected_exit);
  return nlohmann::json::parse(r.out);
}

bool contains(const nlohmann::json& s, std::string_view part) {
  return s.get<std::string>().find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("workstation: the USB3 stick in the front USB2 header and the quirked ASMedia enclosure") {
  const auto doc = doctor_json("workstation", 11);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sdc"}, {"uas_inactive", "sdd"}});
  const auto& slow = finding(doc, "speed_below_capability", "sdc");
  CHECK(slow.at("severity") == "problem");
  CHECK(slow.at("evidence").at("1-7/speed") == "480");
  CHECK(slow.at("evidence").at("usb1-port7/peer") == "(none)");  // a USB2-only front header
  CHECK(contains(slow.at("fix"), "usb1-port3 (USB3 side usb2-port3, back panel, upper left)"));
  const auto& uas = finding(doc, "uas_inactive", "sdd");
  CHECK(uas.at("severity") == "info");
  CHECK(uas.at("evidence").at("usb_storage.quirks") == "174c:55aa:u");
  CHECK(uas.at("evidence").at("2-1.3:1.0/driver") == "usb-storage");
  CHECK(doc.at("checked").at("drives") == 4);
  CHECK(doc.at("diagnostics").empty());
}

TEST_CASE("degraded: PCIe, over-current, autosuspend, max_sectors") {
  const auto doc = doctor_json("degraded", 11);
  CHECK(keys(doc) == std::set<Key>{{"overcurrent", "usb1-port2"},
                                   {"speed_below_capability", "sdb"},
                                   {"pcie_link_degraded", "0000:02:00.0"},
                                   {"max_sectors_below_hw", "sda"},
                                   {"autosuspend", "sdb"}});
  const auto& pcie = finding(doc, "pcie_link_degraded", "0000:02:00.0");
  CHECK(pcie.at("evidence").at("0000:02:00.0/current_link_speed") == "2.5 GT/s PCIe");
  CHECK(pcie.at("evidence").at("0000:02:00.0/max_link_speed") == "5.0 GT/s PCIe");
  const auto& ms = finding(doc, "max_sectors_below_hw", "sda");
  CHECK(contains(ms.at("fix"), "echo 1024 | sudo tee /sys/block/sda/queue/max_sectors_kb"));
  CHECK(finding(doc, "overcurrent", "usb1-port2").at("evidence").at("usb1-port2/over_current_count") == "3");
  CHECK(finding(doc, "autosuspend", "sdb").at("evidence").at("4-2/power/control") == "auto");
}

TEST_CASE("legacy-ehci: a 12 Mb/s reader on a UHCI companion, four sticks behind one USB2 hub") {
  const auto doc = doctor_json("legacy-ehci", 11);
  CHECK(keys(doc) ==
        std::set<Key>{{"legacy_companion", "sdg"}, {"slow_hub_uplink", "sdc"}, {"shared_bandwidth", "sdc"}});
  const auto& hub = finding(doc, "slow_hub_uplink", "sdc");
  CHECK(hub.at("severity") == "info");
  CHECK(hub.at("devices").back() == "2-1.2");  // the external hub, not the rate-matching hub above it
  CHECK(finding(doc, "legacy_companion", "sdg").at("evidence").at("5-2/speed") == "12");
}

TEST_CASE("tb-dock: a 10G SSD behind a 5G dock hub") {
  const auto doc = doctor_json("tb-dock", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sda"}, {"slow_hub_uplink", "sda"}});
  CHECK(contains(finding(doc, "speed_below_capability", "sda").at("message"), "behind hub 4-1"));
}

TEST_CASE("amd-laptop: a USB3 stick at 480 on a connector that has a USB3 side") {
  const auto doc = doctor_json("amd-laptop", 11);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sda"}});
  CHECK(contains(finding(doc, "speed_below_capability", "sda").at("message"), "has a USB3 side"));
}

TEST_CASE("usb4-dock: the drives ride the USB3 tunnel of the dock, DisplayPort tunnels not visible, said") {
  const auto doc = doctor_json("usb4-dock", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sdb"},
                                   {"slow_hub_uplink", "sda"},
                                   {"usb4_tunnel_displays", "sda"}});
  const auto& dp = finding(doc, "usb4_tunnel_displays", "sda");
  CHECK(dp.at("severity") == "info");
  CHECK(contains(dp.at("message"), "USB3 tunnel of the USB4 link 0-1 (Dell WD22TB4)"));
  CHECK(contains(dp.at("message"), "none were assumed"));
  usbsat::testing::check_golden("fixture-usb4-dock.doctor.txt", usbsat_on("usb4-dock", "doctor").out);
}

TEST_CASE("usb4-dock-1lane: the dock's link on one lane (the cable), named with its fix") {
  const auto doc = doctor_json("usb4-dock-1lane", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sdb"},
                                   {"slow_hub_uplink", "sda"},
                                   {"usb4_link_below_capability", "0-1"},
                                   {"usb4_tunnel_displays", "sda"}});
  const auto& f = finding(doc, "usb4_link_below_capability", "0-1");
  CHECK(f.at("severity") == "warning");
  CHECK(contains(f.at("message"), "20 Gb/s x 1 lane although both ends can do 20 Gb/s x 2 lanes"));
  CHECK(contains(f.at("fix"), "/sys/bus/thunderbolt/devices/0-1/"));
  usbsat::testing::check_golden("fixture-usb4-dock-1lane.doctor.txt",
                                usbsat_on("usb4-dock-1lane", "doctor").out);
  usbsat::testing::check_golden("fixture-usb4-dock-1lane.doctor.json",
                                usbsat_on("usb4-dock-1lane", "doctor --json").out);
}

TEST_CASE("usb4-dock-displays: two monitors on the dock leave writes 3.2 Gb/s of the USB3 tunnel, reads 8") {
  const auto doc = doctor_json("usb4-dock-displays", 10);
  const auto& dp = finding(doc, "usb4_tunnel_displays", "sda");
  CHECK(dp.at("severity") == "warning");
  // Each EDID: 3840x2160 at 533.25 MHz, 10 bits per colour: 15.9975 Gb/s host to dock.
  CHECK(contains(dp.at("message"),
                 "with 2 displays (card0-DP-1 3840x2160 DELL U2720Q, card0-DP-2 3840x2160 "
                 "DELL U2720Q): 2 DisplayPort tunnels 31.995 Gb/s host to dock (their EDID modes)"));
  CHECK(contains(dp.at("message"),
                 "Writes (host to dock) are affected: the USB3 tunnel carries at most 3.204 Gb/s"));
  CHECK(contains(dp.at("message"), "reads (dock to host) are not, up to 8 Gb/s"));
  usbsat::testing::check_golden("fixture-usb4-dock-displays.doctor.txt",
                                usbsat_on("usb4-dock-displays", "doctor").out);
}

TEST_CASE("rpi4: the drives share the VL805's published ceiling on the Pi 4, named with its source") {
  // The layout of a real Pi 4 (checkbox RPI4B4G): the BCM2711's root port below a platform host bridge, the
  // VL805's one USB2 port carrying its internal hub.
  const Run topo = usbsat_on("rpi4", "topo");
  CHECK(topo.out.find("PCI 0000:00:00.0 [14e4:2711]") != std::string::npos);
  CHECK(topo.out.find("usb1 root hub 480M, 1 port\n") != std::string::npos);
  usbsat::testing::check_golden("fixture-rpi4.doctor.txt", usbsat_on("rpi4", "doctor").out);
  const auto doc = doctor_json("rpi4", 10);
  const auto& f = finding(doc, "shared_bandwidth", "sda");
  CHECK(f.at("evidence").at("bottleneck capacity (MB/s)") == "297");
  CHECK(contains(f.at("evidence").at("bottleneck capacity basis"),
                 "published: VL805 on Raspberry Pi 4, ~297 MB/s (Jeff Geerling"));
  CHECK(
      contains(f.at("evidence").at("sdb demand basis"), "published: VL805 on Raspberry Pi 4, BOT ~172 MB/s"));
}

TEST_CASE("tb4-hub-chain: the hub router's link on one lane, named with its path and the drives behind it") {
  const auto doc = doctor_json("tb4-hub-chain", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sdb"},
                                   {"shared_bandwidth", "sda"},
                                   {"usb4_link_below_capability", "0-301"},
                                   {"slow_hub_uplink", "sda"},
                                   {"slow_hub_uplink", "sdb"},
                                   {"usb4_tunnel_displays", "sda"},
                                   {"usb4_tunnel_displays", "sdb"}});
  const auto& f = finding(doc, "usb4_link_below_capability", "0-301");
  CHECK(contains(f.at("message"), "USB4 link 0-301 (OWC Thunderbolt Hub) via 0-1"));
  CHECK(f.at("devices") == nlohmann::json::array({"0-301", "sdb", "2-1.4.1", "sdc", "2-1.4.2"}));
  usbsat::testing::check_golden("fixture-tb4-hub-chain.doctor.txt", usbsat_on("tb4-hub-chain", "doctor").out);
}

TEST_CASE("tb3-dock: the dock's own xHCI on PCIe 2.0 x1, named with the router and 400 MB/s") {
  const auto doc = doctor_json("tb3-dock", 10);
  // The findings the scenario declares (expected.json, written by sysfsgen.py) are all there.
  std::ifstream in(std::string(USBSAT_FIXTURES_DIR) + "/tb3-dock.expected.json");
  const auto declared = nlohmann::json::parse(in).at("findings");
  REQUIRE(!declared.empty());
  for (const auto& d : declared) CHECK(keys(doc).count({d.at("id"), d.at("device")}) == 1);
  const auto& f = finding(doc, "tb_dock_pcie_narrow", "0-1");
  CHECK(f.at("severity") == "warning");
  CHECK(contains(f.at("message"), "Thunderbolt 3 link 0-1 (CalDigit, Inc. TS3 Plus)"));
  CHECK(contains(f.at("message"), "on a PCIe 5 GT/s x1 link (all it can do)"));
  CHECK(contains(f.at("message"),
                 "shares about 400 MB/s, although the link's PCIe tunnel carries up to 3600 MB/s"));
  usbsat::testing::check_golden("fixture-tb3-dock.doctor.txt", usbsat_on("tb3-dock", "doctor").out);
  usbsat::testing::check_golden("fixture-tb3-dock.doctor.json", usbsat_on("tb3-dock", "doctor --json").out);
}

TEST_CASE(
    "typec-no-tb: without the thunderbolt bus nothing USB4 is claimed, and the doctor says it cannot see") {
  const auto doc = doctor_json("typec-no-tb", 10);
  for (const auto& [id, dev] : keys(doc))
    if (id != "usb4_bus_not_visible") CHECK(id.rfind("usb4_", 0) != 0);
  const auto& f = finding(doc, "usb4_bus_not_visible", "0000:00:0d.0");
  CHECK(f.at("severity") == "info");
  CHECK(contains(f.at("message"), "Tiger Lake-LP Thunderbolt 4 USB Controller"));
  CHECK(contains(f.at("message"), "not known (not guessed)"));
}

TEST_CASE("asm1042-card: two SSDs share the card's PCIe x1 link, both below 10G on a 5G controller") {
  const auto doc = doctor_json("asm1042-card", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sdb"},
                                   {"speed_below_capability", "sdc"},
                                   {"shared_bandwidth", "sdb"}});
  const auto& shared = finding(doc, "shared_bandwidth", "sdb");
  CHECK(shared.at("devices") == nlohmann::json::array({"sdb", "4-1", "sdc", "4-2"}));
  CHECK(contains(shared.at("evidence").at("bottleneck"), "0000:03:00.0"));
  CHECK(shared.at("evidence").at("sdb alone / shared (MB/s)") == "400 / 200");
}

TEST_CASE("pcie-switch-card: three controllers' drives share one switch uplink, the hard disk fits") {
  const auto doc = doctor_json("pcie-switch-card", 10);
  const auto& shared = finding(doc, "shared_bandwidth", "sda");
  // Three SSDs at their links' ceilings, each with its USB device; the fourth drive is a portable hard disk
  // whose estimated ~140 MB/s the uplink leaves it.
  CHECK(shared.at("devices").size() == 6);
  CHECK(!contains(shared.at("message"), "sdd"));
  // The empty chipset controller is the way around the switch's x2 uplink.
  CHECK(contains(shared.at("fix"), "does not go through the PCIe 5 GT/s x2 link of 0000:01:00.0"));
  CHECK(!shared.at("evidence").at("free connectors not behind the bottleneck").get<std::string>().empty());
  for (const auto& f : doc.at("findings"))
    CHECK((f.at("id") == "speed_below_capability" || f.at("id") == "shared_bandwidth"));
}

TEST_CASE("cardreader-multilun: nothing to report, exit 0, said in text") {
  CHECK(doctor_json("cardreader-multilun", 0).at("findings").empty());
  const Run r = usbsat_on("cardreader-multilun", "doctor");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("no findings") != std::string::npos);
}

TEST_CASE("text output is byte-identical across runs") {
  const Run a = usbsat_on("workstation", "doctor"), b = usbsat_on("workstation", "doctor");
  CHECK(a.exit_code == 11);
  CHECK(a.out == b.out);
  CHECK(a.out.find("PROBLEM speed_below_capability: sdc, 1-7") != std::string::npos);
}

TEST_CASE("real recording: 2009 ThinkPad, a USB 2.0 flash drive on EHCI, UHCI companions: no findings") {
  const std::string tarball =
      std::string(USBSAT_SHARED_DIR) +
      "/fixtures/real/sysfs-tarballs/thinkpad-2009-ehci-uhci-usbstorage-flash-sysfs.tar.xz";
  if (std::system(("test -r " + tarball).c_str()) != 0) std::exit(77);  // shared fixtures not present
  char tmpl[] = "/tmp/usbsat-doctor-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  REQUIRE(std::system(("tar -C " + dir + " -xJf " + tarball).c_str()) == 0);
  const Run r = usbsat_in(dir, "doctor --json");
  std::system(("rm -rf " + dir).c_str());
  CHECK(r.exit_code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc.at("findings").empty());
  CHECK(doc.at("checked").at("drives") == 1);
  CHECK(doc.at("checked").at("controllers") == 5);
}

TEST_CASE("doctor counts drives as plan --predict does: one per medium, empty card-reader slots not at all") {
  for (const char* scenario : {"cardreader-multilun", "workstation", "legacy-ehci", "asm1042-card"}) {
    CAPTURE(scenario);
    const Run d = usbsat_on(scenario, "doctor --json");
    const Run p = usbsat_on(scenario, "plan --predict --json");
    REQUIRE(p.exit_code == 0);
    const auto doctor = nlohmann::json::parse(d.out);
    const auto plan = nlohmann::json::parse(p.out);
    CHECK(doctor.at("checked").at("drives") == plan.at("drives").size());
  }
  // The reader has four LUNs (sdb..sde) and one card: one drive, said so in text.
  const Run r = usbsat_on("cardreader-multilun", "doctor");
  CHECK(r.out.find("checked 1 USB drive on 1 USB controller") != std::string::npos);
}

TEST_CASE("rpi5: RP1's two DWC3 controllers, named from the device tree, hang off RP1's PCIe x4 link") {
  const auto doc = doctor_json("rpi5", 10);
  CHECK(keys(doc) == std::set<Key>{{"speed_below_capability", "sda"}});
  const auto drives = nlohmann::json::parse(usbsat_on("rpi5", "drives --json").out).at("drives");
  REQUIRE(drives.size() == 2);
  for (const auto& d : drives) {
    CAPTURE(d.at("dev").get<std::string>());
    CHECK(d.at("controller").at("kind") == "xhci");
    CHECK(contains(d.at("controller").at("name"), "RP1 DWC3 (/axi/pcie@120000/rp1/usb@"));
    CHECK(d.at("controller").at("vendor") == "Raspberry Pi");
    REQUIRE(!d.at("pcie_uplink").empty());
    CHECK(d.at("pcie_uplink").at(0).at("pci") == "0001:01:00.0");  // RP1 itself, 5 GT/s x4
    CHECK(d.at("pcie_uplink").at(0).at("width") == 4);
  }
  // Both controllers' uplink is RP1's link: `ports` says they share it, `export` gives its capacity.
  CHECK(usbsat_on("rpi5", "ports")
            .out.find("Controllers sharing PCIe link 0001:01:00.0: xhci-hcd.0 xhci-hcd.1") !=
        std::string::npos);
  CHECK(usbsat_on("rpi5", "export --prometheus")
            .out.find(
                "{link=\"pcie_link:0001:01:00.0\",kind=\"pcie_link\",node=\"0001:01:00.0\"} 1600000000") !=
        std::string::npos);
  usbsat::testing::check_golden("fixture-rpi5.doctor.txt", usbsat_on("rpi5", "doctor").out);
  usbsat::testing::check_golden("fixture-rpi5.plan-predict.txt", usbsat_on("rpi5", "plan --predict").out);
}
