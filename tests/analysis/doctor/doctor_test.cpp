// The doctor's findings over in-memory topologies: each fires on its evidence and stays quiet on healthy
// devices; the workstation machine gives exactly the expected findings; results are deterministic.
#include <doctest/doctest.h>

#include "tests/support/golden.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "report/doctor_report.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "topology/bandwidth.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "tests/support/doctor_topologies.hpp"

using namespace usbsat;
using namespace usbsat::testing;
using analysis::doctor::diagnose;
using analysis::doctor::DoctorConfig;
using report::Finding;
using report::FindingSeverity;

namespace {

std::vector<std::string> ids(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.id);
  return out;
}

const Finding& only(const std::vector<Finding>& fs, std::string_view id) {
  const Finding* hit = nullptr;
  for (const auto& f : fs)
    if (f.id == id) {
      REQUIRE_MESSAGE(hit == nullptr, "more than one ", id);
      hit = &f;
    }
  REQUIRE_MESSAGE(hit != nullptr, "no ", id);
  return *hit;
}

std::string evidence(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.evidence)
    if (k == key) return v;
  return "<missing " + std::string(key) + ">";
}

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}


using usbsat::testing::check_golden;

/// A bandwidth model stand-in: returns canned shares.
class FakePredictor : public analysis::doctor::SharePredictor {
 public:
  explicit FakePredictor(std::vector<analysis::doctor::DriveShare> s) : shares_(std::move(s)) {}
  std::vector<analysis::doctor::DriveShare> predict(const topology::Topology&) const override { return shares_; }

 private:
  std::vector<analysis::doctor::DriveShare> shares_;
};

}  // namespace

TEST_CASE("a UAS SSD at 10 Gb/s on a USB3 connector gives no finding at all") {
  const auto t = healthy_machine();
  const auto r = diagnose(t, {.usb_storage_quirks = "", .uas_driver_loaded = true});
  CHECK(r.findings.empty());
  CHECK(r.drives_checked == 1);
  CHECK(r.controllers_checked == 1);
  CHECK(!report::worst_severity(r.findings));
  const auto text = report::render_doctor_text({r.findings, {}, r.controllers_checked, r.drives_checked});
  CHECK(contains(text, "no findings"));
}

TEST_CASE("workstation: exactly the expected findings, in severity order") {
  const auto t = workstation_machine();
  const auto r = diagnose(t, {.usb_storage_quirks = kWorkstationQuirks, .uas_driver_loaded = true});
  CHECK(ids(r.findings) == std::vector<std::string>{"speed_below_capability", "uas_inactive"});
  CHECK(r.drives_checked == 3);

  const auto& slow = only(r.findings, "speed_below_capability");
  CHECK(slow.severity == FindingSeverity::Problem);
  CHECK(slow.devices == std::vector<std::string>{"sdb", "1-5"});
  CHECK(evidence(slow, "1-5/speed") == "480");
  CHECK(evidence(slow, "1-5/bos_descriptors (capable speed)") == "5000");
  CHECK(evidence(slow, "usb1-port5/peer") == "(none)");
  CHECK(contains(slow.message, "usb1-port5 is USB 2.0 only"));
  // Free connectors of the same controller with a USB3 side: 3 and 4 (1 and 2 are taken).
  CHECK(evidence(slow, "free connectors at full speed (same controller)") ==
        "usb1-port3 (USB3 side usb2-port3), usb1-port4 (USB3 side usb2-port4)");
  CHECK(contains(slow.fix, "Move it to usb1-port3"));

  const auto& uas = only(r.findings, "uas_inactive");
  CHECK(uas.severity == FindingSeverity::Info);  // a deliberate quirk
  CHECK(uas.devices == std::vector<std::string>{"sdc", "2-2"});
  CHECK(evidence(uas, "usb_storage.quirks") == "152d:0578:u");
  CHECK(evidence(uas, "2-2:1.0/driver") == "usb-storage");
  CHECK(evidence(uas, "2-2:1.0/descriptors (alt settings)") == "alt 0: 08/06/50; alt 1: 08/06/62");
  CHECK(contains(uas.message, "152d:0578"));
  CHECK(contains(uas.fix, "Risk"));
  CHECK(contains(uas.fix, "remove 152d:0578:u"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Problem);
}

TEST_CASE("workstation renders to the golden text and JSON") {
  const auto t = workstation_machine();
  const auto r = diagnose(t, {.usb_storage_quirks = kWorkstationQuirks, .uas_driver_loaded = true});
  const report::DoctorReportInput in{r.findings, {}, r.controllers_checked, r.drives_checked};
  check_golden("doctor_workstation.txt", report::render_doctor_text(in));
  check_golden("doctor_workstation.json", report::render_doctor_json(in));
}

TEST_CASE("diagnose is deterministic") {
  const auto a = diagnose(workstation_machine(), {.usb_storage_quirks = kWorkstationQuirks});
  const auto b = diagnose(workstation_machine(), {.usb_storage_quirks = kWorkstationQuirks});
  CHECK(a.findings == b.findings);
  const auto t = workstation_machine();
  CHECK(diagnose(t).findings == diagnose(t).findings);
}

TEST_CASE("uas_inactive: reasons and severities") {
  auto build = [](std::uint16_t vid, std::uint16_t pid, UsbSpeed speed, bool uas_capable,
                  std::string driver) {
    Machine m;
    auto h = xhci_host(m);
    const bool ss = is_superspeed(speed);
    m.drive(Machine::port_path(ss ? h.usb2 : h.usb1, ss ? "usb2" : "usb1", 1), {.name = ss ? "2-1" : "1-1",
                                                                                .vid = vid,
                                                                                .pid = pid,
                                                                                .speed = speed,
                                                                                .driver = std::move(driver),
                                                                                .uas_capable = uas_capable,
                                                                                .disk = "sdd"});
    return m.finish();
  };
  SUBCASE("no visible reason: warning that points at dmesg") {
    const auto r =
        diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"), {.uas_driver_loaded = true});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.fix, "dmesg"));
    CHECK(contains(f.message, "unusual_uas.h"));
  }
  SUBCASE("a quirk for another device does not count") {
    const auto r = diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"),
                            {.usb_storage_quirks = "1234:5679:u,1234:5678:k"});
    CHECK(only(r.findings, "uas_inactive").severity == FindingSeverity::Warning);
  }
  SUBCASE("uas driver absent") {
    const auto r =
        diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"), {.uas_driver_loaded = false});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(evidence(f, "/sys/module/uas") == "(absent)");
    CHECK(contains(f.fix, "modprobe uas"));
  }
  SUBCASE("ASMedia 174c:55aa below SuperSpeed: the kernel's own rule") {
    const auto r = diagnose(build(0x174c, 0x55aa, UsbSpeed::High, true, "usb-storage"));
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Info);
    CHECK(contains(f.message, "below SuperSpeed"));
  }
  SUBCASE("on an OHCI companion: no scatter-gather; the scanner's reason is kept as evidence") {
    Machine m;
    auto ohci = m.controller(std::nullopt, "0000:00:12.0", HcdKind::Ohci);
    auto u3 = m.root_hub(ohci, 3, UsbSpeed::Full);
    m.port(u3, "usb3", 1);
    m.drive(Machine::port_path(u3, "usb3", 1), {.name = "3-1",
                                                .speed = UsbSpeed::Full,
                                                .capable = UsbSpeed::Full,
                                                .driver = "usb-storage",
                                                .uas_capable = true,
                                                .disk = "sdd"});
    auto t = m.finish();
    const auto r = diagnose(t);
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.message, "ohci companion controller 0000:00:12.0"));
    CHECK(contains(f.message, "scatter-gather"));
    CHECK(contains(f.fix, "xHCI"));
  }
  SUBCASE("a reason only the scanner saw is used") {
    Machine m;
    auto h = xhci_host(m);
    const auto dev =
        m.drive(Machine::port_path(h.usb2, "usb2", 1),
                {.name = "2-1", .speed = UsbSpeed::Super, .driver = "usb-storage", .disk = "sdd"});
    m.node(dev + "/2-1:1.0").as<InterfaceInfo>().uas_blocked_reason = "some reason the scanner saw";
    const auto t = m.finish();
    const auto r = diagnose(t, {.uas_driver_loaded = true});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(contains(f.message, "some reason the scanner saw"));
    CHECK(evidence(f, "scanner: uas blocked because") == "some reason the scanner saw");
  }
  SUBCASE("not UAS-capable, or already on uas: nothing") {
    CHECK(diagnose(build(0x1234, 0x5678, UsbSpeed::Super, false, "usb-storage")).findings.empty());
    CHECK(diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "uas")).findings.empty());
  }
}

TEST_CASE("speed_below_capability: causes and suggested connectors") {
  SUBCASE("USB3 connector, device on its USB2 side: cable or connector") {
    Machine m;
    auto h = xhci_host(m);
    m.drive(Machine::port_path(h.usb1, "usb1", 2),
            {.name = "1-2", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sde"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Problem);
    CHECK(contains(f.message, "has a USB3 side (usb2-port2)"));
    CHECK(evidence(f, "usb1-port2/peer") == "usb2-port2");
    CHECK(contains(f.fix, "usb1-port1"));  // free, with a USB3 side
  }
  SUBCASE("a USB3 peer marked 'not used' makes the connector USB2-only") {
    Machine m;
    auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High);
    auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super);
    m.port(u1, "usb1", 7, Machine::port_path(u2, "usb2", 7));
    m.port(u2, "usb2", 7, Machine::port_path(u1, "usb1", 7), PortInfo{.connect_type = "not used"});
    m.drive(Machine::port_path(u1, "usb1", 7),
            {.name = "1-7", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdc"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(
        f.message,
        "connector usb1-port7 is USB 2.0 only (the firmware marks its USB3 peer usb2-port7 as not used)"));
    CHECK(evidence(f, "usb2-port7/connect_type") == "not used");
  }
  SUBCASE("10G drive at 5G on a Gen 1 controller: names the controller, suggests another one") {
    Machine m;
    auto gen1 = xhci_host(m, UsbSpeed::Super, "0000:00:14.0", 1);
    xhci_host(m, UsbSpeed::SuperPlus, "0000:05:00.0", 3);
    m.drive(Machine::port_path(gen1.usb2, "usb2", 1),
            {.name = "2-1", .speed = UsbSpeed::Super, .capable = UsbSpeed::SuperPlus, .disk = "sdf"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.message, "USB 3.2 Gen 1 controller"));
    CHECK(evidence(f, "free connectors at full speed (other controllers)") ==
          "usb3-port1 (USB3 side usb4-port1), usb3-port2 (USB3 side usb4-port2), usb3-port3 (USB3 side "
          "usb4-port3), "
          "usb3-port4 (USB3 side usb4-port4)");
  }
  SUBCASE("bcdUSB 3.20 without BOS does not prove 10 Gb/s") {
    Machine m;
    auto h = xhci_host(m);
    m.drive(Machine::port_path(h.usb2, "usb2", 1), {.name = "2-1",
                                                    .speed = UsbSpeed::Super,
                                                    .capable = UsbSpeed::SuperPlus,
                                                    .capable_from_bos = false,
                                                    .disk = "sdg"});
    CHECK(diagnose(m.finish()).findings.empty());
  }
  SUBCASE("connectors marked 'not used' and occupied ones are never suggested") {
    Machine m;
    auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High);
    auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super);
    m.port(u1, "usb1", 1, Machine::port_path(u2, "usb2", 1));
    m.port(u2, "usb2", 1, Machine::port_path(u1, "usb1", 1), PortInfo{.connect_type = "not used"});
    m.port(u1, "usb1", 2);
    m.drive(Machine::port_path(u1, "usb1", 2),
            {.name = "1-2", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdh"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(f.fix, "No free connector on this machine runs at 5 Gb/s"));
  }
}

TEST_CASE("slow_hub_uplink: a 5G drive behind a USB2 hub, and two drives behind one USB3 hub") {
  Machine m;
  auto h = xhci_host(m);
  // USB2-only hub 1-1 (480) with a 5G-capable drive on its port 1.
  UsbDeviceInfo hub2{.name = "1-1"};
  hub2.speed = UsbSpeed::High;
  hub2.version = " 2.00";
  hub2.product = "USB2.0 Hub";
  const auto hub2_path = m.usb_device(Machine::port_path(h.usb1, "usb1", 1), hub2, NodeKind::Hub);
  m.port(hub2_path, "1-1", 1);
  m.port(hub2_path, "1-1", 2);
  m.drive(Machine::port_path(hub2_path, "1-1", 1),
          {.name = "1-1.1", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdb"});
  // USB3 hub 2-2 (5000) with two 5G drives.
  UsbDeviceInfo hub3{.name = "2-2"};
  hub3.speed = UsbSpeed::Super;
  hub3.capable_speed = UsbSpeed::Super;
  const auto hub3_path = m.usb_device(Machine::port_path(h.usb2, "usb2", 2), hub3, NodeKind::Hub);
  m.port(hub3_path, "2-2", 1);
  m.port(hub3_path, "2-2", 2);
  m.drive(Machine::port_path(hub3_path, "2-2", 1),
          {.name = "2-2.1", .speed = UsbSpeed::Super, .disk = "sdc"});
  m.drive(Machine::port_path(hub3_path, "2-2", 2),
          {.name = "2-2.2", .speed = UsbSpeed::Super, .disk = "sdd"});
  const auto r = diagnose(m.finish());

  std::vector<const Finding*> hubs;
  for (const auto& f : r.findings)
    if (f.id == "slow_hub_uplink") hubs.push_back(&f);
  REQUIRE(hubs.size() == 2);
  const auto& slow = *hubs[0];  // warning sorts first
  CHECK(slow.severity == FindingSeverity::Warning);
  CHECK(slow.devices == std::vector<std::string>{"sdb", "1-1.1", "1-1"});
  CHECK(evidence(slow, "1-1/speed") == "480");
  CHECK(contains(slow.message, "hub 1-1 (USB2.0 Hub) is connected upstream at 480 Mb/s"));
  const auto& shared = *hubs[1];
  CHECK(shared.severity == FindingSeverity::Info);
  CHECK(shared.devices == std::vector<std::string>{"sdc", "2-2.1", "sdd", "2-2.2", "2-2"});
  CHECK(contains(shared.message, "2 drives share this hub's 5 Gb/s uplink"));
  // The drive behind the USB2 hub is also below its capability, with the hub named as the cause.
  const auto& below = only(r.findings, "speed_below_capability");
  CHECK(contains(below.message, "behind hub 1-1"));
  CHECK(below.devices == std::vector<std::string>{"sdb", "1-1.1"});
}

TEST_CASE("shared_bandwidth comes from the predictor and groups drives by bottleneck") {
  Machine m;
  auto h = xhci_host(m);
  const auto a = m.drive(Machine::port_path(h.usb2, "usb2", 1),
                         {.name = "2-1", .speed = UsbSpeed::Super, .disk = "sdb"});
  const auto b = m.drive(Machine::port_path(h.usb2, "usb2", 2),
                         {.name = "2-2", .speed = UsbSpeed::Super, .disk = "sdc"});
  const auto c = m.drive(Machine::port_path(h.usb2, "usb2", 3),
                         {.name = "2-3", .speed = UsbSpeed::Super, .disk = "sdd"});
  const auto t = m.finish();
  const auto va = *t.find(a), vb = *t.find(b), vc = *t.find(c);

  SUBCASE("two drives over capacity on one link, one alone on another") {
    FakePredictor p({{va, 400, 190, "usb_bus:usb2", "usb2", "SuperSpeed bus usb2", 380},
                     {vb, 400, 190, "usb_bus:usb2", "usb2", "SuperSpeed bus usb2", 380},
                     {vc, 400, 400, "drive_link:2-3", "2-3", "usb2-port3", 450}});
    const auto r = diagnose(t, {.predictor = &p});
    const auto& f = only(r.findings, "shared_bandwidth");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"sdb", "2-1", "sdc", "2-2"});
    CHECK(evidence(f, "bottleneck") == "SuperSpeed bus usb2");
    // Every free USB3 connector of this machine is behind usb2: nothing to move to.
    CHECK(contains(f.fix, "No free connector avoids the SuperSpeed bus usb2"));
    CHECK(evidence(f, "bottleneck capacity (MB/s)") == "380");
    CHECK(evidence(f, "sdb alone / shared (MB/s)") == "400 / 190");
    CHECK(contains(f.message, "about 380 MB/s usable for 800 MB/s of combined demand"));
  }
  SUBCASE("sharing within capacity is not a finding") {
    FakePredictor p({{va, 200, 200, "usb_bus:usb2", "usb2", "root hub usb2", 900},
                     {vb, 200, 195, "usb_bus:usb2", "usb2", "root hub usb2", 900}});
    CHECK(diagnose(t, {.predictor = &p}).findings.empty());
  }
  SUBCASE("no predictor, no finding") {
    CHECK(diagnose(t).findings.empty());
  }
}

TEST_CASE("pcie_link_degraded pairs both ends of a link") {
  auto build = [](double cur_gts, unsigned cur_w) {
    Machine m;
    const auto rp =
        m.pci_hop(std::nullopt, "0000:00:1c.4",
                  PcieLink{.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 8.0, .max_width = 4});
    auto ctrl =
        m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                     PcieLink{.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 5.0, .max_width = 1}, {},
                     "ASM1042 SuperSpeed USB Host Controller");
    auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High);
    auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super);
    m.paired_ports(u1, "usb3", u2, "usb4", 2);
    m.drive(Machine::port_path(u2, "usb4", 1), {.name = "4-1", .speed = UsbSpeed::Super, .disk = "sdb"});
    return m.finish();
  };
  SUBCASE("x1 card in a x4 slot at its full 5 GT/s: healthy") {
    CHECK(diagnose(build(5.0, 1)).findings.empty());
  }
  SUBCASE("trained at 2.5 GT/s: degraded, warning because a drive is behind it") {
    const auto r = diagnose(build(2.5, 1));
    const auto& f = only(r.findings, "pcie_link_degraded");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"0000:03:00.0", "0000:00:1c.4", "sdb", "4-1"});
    CHECK(evidence(f, "0000:03:00.0/current_link_speed") == "2.5 GT/s PCIe");
    CHECK(evidence(f, "0000:00:1c.4/max_link_speed") == "8.0 GT/s PCIe");
    // One capacity per link: the bandwidth model's figure for PCIe 2.0 x1 (plan and saturate say the same).
    CHECK(contains(f.message, "about 200 MB/s instead of 400 MB/s"));
    topology::PcieLink gen2x1;
    gen2x1.speed_gts = 5.0;
    gen2x1.width = 1;
    CHECK(topology::pcie_capacity(gen2x1)->mbs() == doctest::Approx(400.0));
    CHECK(contains(f.fix, "lspci -vv -s 0000:03:00.0"));
  }
}

TEST_CASE("max_sectors_below_hw gives the exact command") {
  auto build = [](unsigned cur, unsigned hw) {
    Machine m;
    auto h = xhci_host(m);
    m.drive(Machine::port_path(h.usb2, "usb2", 1), {.name = "2-1",
                                                    .vid = 0x0bc2,
                                                    .pid = 0xab38,
                                                    .speed = UsbSpeed::Super,
                                                    .disk = "sdc",
                                                    .max_sectors_kb = cur,
                                                    .max_hw_sectors_kb = hw});
    return m.finish();
  };
  const auto r = diagnose(build(120, 32767));
  const auto& f = only(r.findings, "max_sectors_below_hw");
  CHECK(f.severity == FindingSeverity::Info);
  CHECK(f.devices == std::vector<std::string>{"sdc", "2-1"});
  CHECK(evidence(f, "sdc/queue/max_sectors_kb") == "120");
  CHECK(evidence(f, "sdc/queue/max_hw_sectors_kb") == "32767");
  CHECK(contains(f.fix, "echo 1024 | sudo tee /sys/block/sdc/queue/max_sectors_kb\n"));
  CHECK(contains(f.fix, "echo 120 | sudo tee /sys/block/sdc/queue/max_sectors_kb"));
  CHECK(contains(f.fix, "ATTRS{idVendor}==\"0bc2\""));
  CHECK(contains(f.message, "Turbo mode"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Info);  // info only

  // Target is capped by the hardware limit; at or above the target there is nothing to say.
  CHECK(
      contains(only(diagnose(build(120, 512)).findings, "max_sectors_below_hw").fix, "echo 512 | sudo tee"));
  CHECK(diagnose(build(512, 512)).findings.empty());
  CHECK(diagnose(build(1280, 32767)).findings.empty());
  CHECK(diagnose(build(256, 32767), {.max_sectors_target_kb = 256}).findings.empty());
}

TEST_CASE("autosuspend on a storage device") {
  Machine m;
  auto h = xhci_host(m);
  m.drive(Machine::port_path(h.usb2, "usb2", 1), {.name = "2-1",
                                                  .vid = 0x04e8,
                                                  .pid = 0x4001,
                                                  .speed = UsbSpeed::SuperPlus,
                                                  .disk = "sda",
                                                  .power_control = "auto"});
  // A non-storage device with autosuspend is not our business.
  UsbDeviceInfo kbd{.name = "1-5"};
  kbd.speed = UsbSpeed::Full;
  kbd.power_control = "auto";
  m.usb_device(Machine::port_path(h.usb1, "usb1", 5), kbd);
  const auto r = diagnose(m.finish());
  REQUIRE(r.findings.size() == 1);
  const auto& f = r.findings[0];
  CHECK(f.id == "autosuspend");
  CHECK(f.devices == std::vector<std::string>{"sda", "2-1"});
  CHECK(evidence(f, "2-1/power/control") == "auto");
  CHECK(contains(f.fix, "echo on | sudo tee /sys/bus/usb/devices/2-1/power/control"));
}

TEST_CASE("overcurrent on a connector, with and without a drive") {
  Machine m;
  auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
  auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High);
  auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super);
  PortInfo oc{.over_current_count = 3u};
  oc.physical_location =
      PhysicalLocation{.panel = "back", .vertical_position = "upper", .horizontal_position = "left"};
  m.port(u1, "usb1", 1, Machine::port_path(u2, "usb2", 1), oc);
  m.port(u2, "usb2", 1, Machine::port_path(u1, "usb1", 1), PortInfo{.over_current_count = 0u});
  m.port(u1, "usb1", 2, Machine::port_path(u2, "usb2", 2));
  m.port(u2, "usb2", 2, Machine::port_path(u1, "usb1", 2), PortInfo{.over_current_count = 1u});
  m.drive(Machine::port_path(u2, "usb2", 2), {.name = "2-2", .speed = UsbSpeed::Super, .disk = "sdb"});
  const auto r = diagnose(m.finish());
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].id == "overcurrent");
  CHECK(r.findings[0].severity == FindingSeverity::Problem);
  CHECK(r.findings[0].devices == std::vector<std::string>{"usb1-port1"});
  CHECK(evidence(r.findings[0], "usb1-port1/over_current_count") == "3");
  CHECK(contains(r.findings[0].message, "back panel, upper left"));
  CHECK(contains(r.findings[0].message, "3 over-current events"));
  CHECK(r.findings[1].devices == std::vector<std::string>{"usb2-port2", "sdb", "2-2"});
  CHECK(contains(r.findings[1].message, "sdb is plugged in now"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Problem);
}

TEST_CASE("legacy_companion: a stick on a UHCI companion") {
  auto build = [](std::string version) {
    Machine m;
    auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci, {}, {"0000:00:1d.0"});
    auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci, {}, {"0000:00:1d.7"});
    auto u5 = m.root_hub(ehci, 5, UsbSpeed::High);
    auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full);
    m.port(u5, "usb5", 1, Machine::port_path(u1, "usb1", 1));
    m.port(u1, "usb1", 1);
    m.port(u1, "usb1", 2);
    m.drive(Machine::port_path(u1, "usb1", 1), {.name = "1-1",
                                                .vid = 0x1043,
                                                .pid = 0x8012,
                                                .product = "Flash Drive",
                                                .speed = UsbSpeed::Full,
                                                .capable = UsbSpeed::Full,
                                                .driver = "usb-storage",
                                                .uas_capable = false,
                                                .disk = "sdb",
                                                .max_sectors_kb = 120,
                                                .max_hw_sectors_kb = 120,
                                                .version = std::move(version)});
    // A low-speed mouse on the other UHCI port is not storage: no finding for it.
    UsbDeviceInfo mouse{.name = "1-2"};
    mouse.speed = UsbSpeed::Low;
    m.usb_device(Machine::port_path(u1, "usb1", 2), mouse);
    return m.finish();
  };
  SUBCASE("USB 2.0 device: the EHCI should have it") {
    const auto r = diagnose(build(" 2.00"));
    REQUIRE(r.findings.size() == 1);
    const auto& f = only(r.findings, "legacy_companion");
    CHECK(f.severity == FindingSeverity::Problem);
    CHECK(f.devices == std::vector<std::string>{"sdb", "1-1"});
    CHECK(evidence(f, "1-1/speed") == "12");
    CHECK(evidence(f, "1-1/version") == " 2.00");
    CHECK(evidence(f, "0000:00:1d.0/driver") == "uhci_hcd");
    CHECK(evidence(f, "0000:00:1d.7/driver") == "ehci-pci");
    CHECK(contains(f.message, "12 Mb/s on uhci controller 0000:00:1d.0"));
    CHECK(contains(f.message, "USB 2.00"));
    CHECK(contains(f.fix, "ehci-pci"));
  }
  SUBCASE("USB 1.1 device: nothing makes it faster") {
    const auto r = diagnose(build(" 1.10"));
    const auto& f = only(r.findings, "legacy_companion");
    CHECK(contains(f.message, "USB 1.1 (full speed) only"));
  }
  SUBCASE("the same stick on the EHCI at 480 is fine") {
    Machine m;
    auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci);
    auto u5 = m.root_hub(ehci, 5, UsbSpeed::High);
    m.port(u5, "usb5", 1);
    m.drive(Machine::port_path(u5, "usb5", 1), {.name = "5-1",
                                                .speed = UsbSpeed::High,
                                                .capable = UsbSpeed::High,
                                                .driver = "usb-storage",
                                                .uas_capable = false,
                                                .disk = "sdb",
                                                .max_sectors_kb = 120,
                                                .max_hw_sectors_kb = 120,
                                                .version = " 2.00"});
    CHECK(diagnose(m.finish()).findings.empty());
  }
}

TEST_CASE("the bandwidth model behind shared_bandwidth: two 5G drives on an ASM1042 behind PCIe 2.0 x1") {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                            PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4});
  auto ctrl = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                           PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 5.0, .max_width = 1}, {},
                           "ASM1042");
  auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High);
  auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super);
  m.paired_ports(u1, "usb3", u2, "usb4", 2);
  m.drive(Machine::port_path(u2, "usb4", 1), {.name = "4-1", .speed = UsbSpeed::Super, .disk = "sdb"});
  const auto t1 = m.finish();
  const analysis::doctor::ModelSharePredictor model;
  CHECK(diagnose(t1, {.predictor = &model}).findings.empty());  // one drive alone shares nothing

  Machine m2;
  const auto rp2 = m2.pci_hop(std::nullopt, "0000:00:1c.4",
                              PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4});
  auto ctrl2 = m2.controller(rp2, "0000:03:00.0", HcdKind::Xhci,
                             PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 5.0, .max_width = 1}, {},
                             "ASM1042");
  auto v1 = m2.root_hub(ctrl2, 3, UsbSpeed::High);
  auto v2 = m2.root_hub(ctrl2, 4, UsbSpeed::Super);
  m2.paired_ports(v1, "usb3", v2, "usb4", 2);
  m2.drive(Machine::port_path(v2, "usb4", 1), {.name = "4-1", .speed = UsbSpeed::Super, .disk = "sdb"});
  m2.drive(Machine::port_path(v2, "usb4", 2), {.name = "4-2", .speed = UsbSpeed::Super, .disk = "sdc"});
  const auto t2 = m2.finish();
  const auto r = diagnose(t2, {.predictor = &model});
  const auto& f = only(r.findings, "shared_bandwidth");
  CHECK(f.devices == std::vector<std::string>{"sdb", "4-1", "sdc", "4-2"});
  CHECK(contains(evidence(f, "bottleneck"), "0000:03:00.0"));
  CHECK(contains(f.fix, "No free connector avoids"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Warning);
}

// ---- one table, one drive rule, one capacity, no findings on garbage, no raw control bytes ------------------

#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/formatters.hpp"

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/doctor/checks.hpp"
#include "src/analysis/model/predict.hpp"

TEST_CASE("the check table: one row per stable finding id, in presentation order") {
  std::vector<std::string> table;
  for (const auto& row : analysis::doctor::check_table()) table.emplace_back(row.id);
  CHECK(table == std::vector<std::string>{"legacy_companion", "overcurrent", "speed_below_capability",
                                          "uas_inactive", "slow_hub_uplink", "shared_bandwidth",
                                          "pcie_link_degraded", "max_sectors_below_hw", "autosuspend"});
  // Every finding carries the id of the row that made it.
  const auto r = diagnose(workstation_machine(), {.usb_storage_quirks = kWorkstationQuirks});
  for (const auto& f : r.findings) CHECK(std::find(table.begin(), table.end(), f.id) != table.end());
}

namespace {
/// A USB 2.0 four-slot card reader 1-6 on the xHCI's usb1-port6 with cards in slots 1 and 2 (sdb, sdc) and
/// empty slots 3 and 4 (sdd, sde: size 0); autosuspend on, so one per-device finding names its media.
Topology card_reader_two_cards() {
  Machine m;
  auto h = xhci_host(m);
  const auto dev = m.drive(Machine::port_path(h.usb1, "usb1", 6), {.name = "1-6",
                                                                    .vid = 0x058f,
                                                                    .pid = 0x6377,
                                                                    .product = "AU6375 Card Reader",
                                                                    .speed = UsbSpeed::High,
                                                                    .capable = UsbSpeed::High,
                                                                    .driver = "usb-storage",
                                                                    .uas_capable = false,
                                                                    .disk = "sdb",
                                                                    .power_control = "auto",
                                                                    .version = " 2.00"});
  const std::string iface = dev + "/1-6:1.0";
  const auto sdc = m.disk(iface, "6:0:0:1", "sdc", 1024, 32767);
  const auto sdd = m.disk(iface, "6:0:0:2", "sdd", 1024, 32767);
  const auto sde = m.disk(iface, "6:0:0:3", "sde", 1024, 32767);
  m.node(dev + "/1-6:1.0/host/target/6:0:0:0/block/sdb").as<BlockInfo>().size_bytes = 62333952ull * 512;
  m.node(sdc).as<BlockInfo>().size_bytes = 31166976ull * 512;
  m.node(sdd).as<BlockInfo>().size_bytes = 0;
  m.node(sde).as<BlockInfo>().size_bytes = 0;
  return m.finish();
}
}  // namespace

TEST_CASE("one drive rule: a card reader with two cards is two drives to doctor, as to plan and saturate") {
  const auto t = card_reader_two_cards();
  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(t, {.predictor = &model});
  // Counted as plan/saturate count them: one drive per medium, empty slots not at all.
  CHECK(analysis::common::usb_drives_with_media(t).size() == 2);
  CHECK(r.drives_checked == 2);
  // A per-device finding names the device's media, never its empty slots.
  CHECK(only(r.findings, "autosuspend").devices == std::vector<std::string>{"sdb", "sdc", "1-6"});
  // The model sees two drives on the reader's one USB 2.0 link: they share it, each named by its medium.
  const auto& f = only(r.findings, "shared_bandwidth");
  CHECK(f.devices == std::vector<std::string>{"sdb", "1-6", "sdc"});
  CHECK(evidence(f, "sdb alone / shared (MB/s)") == "40 / 20");
  CHECK(evidence(f, "sdc alone / shared (MB/s)") == "40 / 20");
  CHECK(contains(f.message, "2 drives share the USB 2.0 BOT link of 1-6 (AU6375 Card Reader)"));
  // The text summary counts drives.
  const auto text = report::render_doctor_text({r.findings, {}, r.controllers_checked, r.drives_checked});
  CHECK(contains(text, "checked 2 USB drives on 1 USB controller"));
}

TEST_CASE("one capacity per link: doctor and plan give the ASM1042's PCIe 2.0 x1 link the same figure") {
  auto build = [](double gts) {
    Machine m;
    const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                              PcieLink{.speed_gts = gts, .width = 1, .max_speed_gts = 5.0, .max_width = 1});
    auto ctrl = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                             PcieLink{.speed_gts = gts, .width = 1, .max_speed_gts = 5.0, .max_width = 1}, {},
                             "ASM1042");
    auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High);
    auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super);
    m.paired_ports(u1, "usb3", u2, "usb4", 2);
    m.drive(Machine::port_path(u2, "usb4", 1), {.name = "4-1", .speed = UsbSpeed::Super, .disk = "sdb"});
    m.drive(Machine::port_path(u2, "usb4", 2), {.name = "4-2", .speed = UsbSpeed::Super, .disk = "sdc"});
    return m.finish();
  };
  // What `usbsat plan` uses: the model's flow problem over the same drives (make_problem).
  auto plan_capacity = [](const Topology& t) {
    const std::vector<analysis::model::DemandSpec> specs{{"sdb", std::nullopt, analysis::model::DemandSource::LinkCeiling},
                                                         {"sdc", std::nullopt, analysis::model::DemandSource::LinkCeiling}};
    for (const auto& res : analysis::model::make_problem(t, specs).resources)
      if (res.id == "pcie_link:0000:03:00.0") return res.capacity->mbs();
    return -1.0;
  };
  const analysis::doctor::ModelSharePredictor model;
  SUBCASE("trained at 5 GT/s: the shared_bandwidth figure") {
    const auto t = build(5.0);
    const double plan = plan_capacity(t);
    CHECK(plan == doctest::Approx(400.0));
    const auto r = diagnose(t, {.predictor = &model});
    const auto& f = only(r.findings, "shared_bandwidth");
    CHECK(evidence(f, "bottleneck capacity (MB/s)") == fmt::format("{:.0f}", plan));
  }
  SUBCASE("trained at 2.5 GT/s: pcie_link_degraded and shared_bandwidth say what plan says") {
    const auto t = build(2.5);
    const double plan = plan_capacity(t);
    CHECK(plan == doctest::Approx(200.0));
    const auto r = diagnose(t, {.predictor = &model});
    CHECK(evidence(only(r.findings, "shared_bandwidth"), "bottleneck capacity (MB/s)") ==
          fmt::format("{:.0f}", plan));
    CHECK(contains(only(r.findings, "pcie_link_degraded").message, fmt::format("about {:.0f} MB/s instead", plan)));
  }
}

TEST_CASE("garbage values never produce a confident finding") {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr unsigned kMax = std::numeric_limits<unsigned>::max();
  // An ASM1042-like card (x1 at 5 GT/s of x1 at 5 GT/s: healthy) with one 5G drive; each row breaks one value.
  auto card = [](PcieLink ctrl_link, std::function<void(Machine&, const std::string&)> tweak = {}) {
    Machine m;
    auto ctrl = m.controller(std::nullopt, "0000:03:00.0", HcdKind::Xhci, ctrl_link, {}, "ASM1042");
    auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High);
    auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super);
    m.paired_ports(u1, "usb3", u2, "usb4", 2);
    const auto dev =
        m.drive(Machine::port_path(u2, "usb4", 1), {.name = "4-1", .speed = UsbSpeed::Super, .disk = "sdb"});
    if (tweak) tweak(m, dev);
    return m.finish();
  };
  auto link = [](std::optional<double> cur, std::optional<unsigned> w, std::optional<double> max,
                 std::optional<unsigned> max_w) {
    return PcieLink{.speed_gts = cur, .width = w, .max_speed_gts = max, .max_width = max_w};
  };
  auto block = [](Machine& m, const std::string& dev) -> BlockInfo& {
    return m.node(dev + "/" + dev.substr(dev.rfind('/') + 1) + ":1.0/host/target/6:0:0:0/block/sdb").as<BlockInfo>();
  };
  // A USB 2.0-connected 5G drive whose port's peer attribute is `peer` (relative to its own syspath).
  auto usb2_drive = [](std::function<std::optional<std::string>(const std::string&)> peer) {
    Machine m;
    auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High);
    m.root_hub(ctrl, 2, UsbSpeed::Super);
    const auto self = Machine::port_path(u1, "usb1", 2);
    m.port(u1, "usb1", 2, peer(self));
    m.drive(self, {.name = "1-2", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdb"});
    return m.finish();
  };
  struct Row {
    const char* what;
    std::function<Topology()> build;
    const char* no_id;       ///< this finding must not appear (nullptr: any may)
    const char* no_text;     ///< ... and no finding may say this (nullptr: nothing)
    const char* must_text;   ///< a finding that does appear must say this ("unknown"); nullptr: none
  };
  const std::vector<Row> rows{
      {"max_link_speed inf", [&] { return card(link(5.0, 1, kInf, 1)); }, "pcie_link_degraded", "inf", nullptr},
      {"max_link_speed NaN", [&] { return card(link(5.0, 1, std::nan(""), 1)); }, "pcie_link_degraded", "nan",
       nullptr},
      {"max_link_speed 1e308", [&] { return card(link(5.0, 1, 1e308, 1)); }, "pcie_link_degraded", "e+308", nullptr},
      {"current_link_speed inf", [&] { return card(link(kInf, 1, 8.0, 1)); }, "pcie_link_degraded", "inf", nullptr},
      {"max_link_width 4294967295", [&] { return card(link(5.0, 1, 5.0, kMax)); }, "pcie_link_degraded",
       "4294967295", nullptr},
      {"current_link_width 4294967295", [&] { return card(link(5.0, kMax, 8.0, 4)); }, "pcie_link_degraded",
       "4294967295", nullptr},
      {"device speed unknown", [&] {
         return card(link(5.0, 1, 5.0, 1), [](Machine& m, const std::string& dev) {
           m.node(dev).as<UsbDeviceInfo>().speed = UsbSpeed::Unknown;
           m.node(dev).as<UsbDeviceInfo>().capable_speed = UsbSpeed::SuperPlus;
         });
       }, "speed_below_capability", "0 Mb/s", nullptr},
      {"max_hw_sectors_kb 4294967295", [&] {
         return card(link(5.0, 1, 5.0, 1), [&](Machine& m, const std::string& dev) {
           block(m, dev).max_sectors_kb = 120;
           block(m, dev).max_hw_sectors_kb = kMax;
         });
       }, "max_sectors_below_hw", "4294967295", nullptr},
      {"max_sectors_kb 0", [&] {
         return card(link(5.0, 1, 5.0, 1), [&](Machine& m, const std::string& dev) {
           block(m, dev).max_sectors_kb = 0;
         });
       }, "max_sectors_below_hw", nullptr, nullptr},
      {"queue_depth 4294967295", [&] {
         return card(link(5.0, 1, 5.0, 1), [](Machine& m, const std::string& dev) {
           m.node(dev + "/4-1:1.0/host/target/6:0:0:0").as<ScsiDeviceInfo>().queue_depth = kMax;
         });
       }, nullptr, "4294967295", nullptr},
      {"size that wrapped x512", [&] {
         return card(link(5.0, 1, 5.0, 1), [&](Machine& m, const std::string& dev) {
           block(m, dev).size_bytes = std::numeric_limits<std::uint64_t>::max() - 511;
         });
       }, "max_sectors_below_hw", "18446744073709551104", nullptr},
      {"over_current_count 4294967295", [&] {
         return card(link(5.0, 1, 5.0, 1), [](Machine& m, const std::string& dev) {
           m.node(dev.substr(0, dev.rfind('/'))).as<PortInfo>().over_current_count = kMax;
         });
       }, "overcurrent", "4294967295", nullptr},
      {"dangling peer", [&] { return usb2_drive([](const std::string&) { return std::string("/sys/devices/gone/usb2-port2"); }); },
       nullptr, "USB 2.0 only", "unknown"},
      {"self-referencing peer", [&] { return usb2_drive([](const std::string& self) { return self; }); },
       nullptr, "USB 2.0 only", "unknown"},
      {"root hub speed unknown", [&] {
         Machine m;
         auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
         auto u1 = m.root_hub(ctrl, 1, UsbSpeed::Unknown);
         m.port(u1, "usb1", 2);
         m.drive(Machine::port_path(u1, "usb1", 2),
                 {.name = "1-2", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdb"});
         return m.finish();
       }, nullptr, "USB 2.0 only", "unknown"},
  };
  for (const auto& row : rows) {
    CAPTURE(row.what);
    const auto t = row.build();
    const analysis::doctor::ModelSharePredictor model;
    const auto r = diagnose(t, {.uas_driver_loaded = true, .predictor = &model});
    for (const auto& f : r.findings) {
      CAPTURE(f.id);
      CAPTURE(f.message);
      if (row.no_id) CHECK(f.id != row.no_id);
      if (row.no_text) {
        CHECK(!contains(f.message, row.no_text));
        CHECK(!contains(f.fix, row.no_text));
        for (const auto& [k, v] : f.evidence) CHECK(!contains(v, row.no_text));
      }
      if (row.must_text) CHECK(contains(f.message, row.must_text));
    }
  }
}

TEST_CASE("garbage: a device behind a missing root hub gets no cause it cannot know") {
  Machine m;
  // Controller and root hub were never scanned; the port (and the drive on it) hang off nothing.
  const std::string hub = "/sys/devices/pci0000:00/0000:00:14.0/usb1";
  const auto port = m.port(hub, "usb1", 2);
  m.drive(port, {.name = "1-2", .speed = UsbSpeed::High, .capable = UsbSpeed::Super, .disk = "sdb"});
  const auto r = diagnose(m.finish());
  const auto& f = only(r.findings, "speed_below_capability");
  CHECK(contains(f.message, "the cause is unknown: its host controller is missing from the scan"));
  CHECK(!contains(f.message, "USB 2.0 only"));
}

TEST_CASE("legacy_companion: a blank version string is no reason to crash") {
  Machine m;
  auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci);
  auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full);
  m.port(u1, "usb1", 1);
  const auto dev = m.drive(Machine::port_path(u1, "usb1", 1),
                           {.name = "1-1", .speed = UsbSpeed::Full, .capable = UsbSpeed::Full,
                            .driver = "usb-storage", .uas_capable = false, .disk = "sdb", .version = " 2.00"});
  m.node(dev).as<UsbDeviceInfo>().version = "    ";
  const auto r = diagnose(m.finish());
  const auto& f = only(r.findings, "legacy_companion");
  CHECK(contains(f.message, "the device is USB 2.0 and could run at 480 Mb/s"));
  // The figure is the bandwidth model's for one Bulk-Only drive at full speed.
  CHECK(contains(f.message, fmt::format("about {} at best",
                                        *topology::usb_drive_capacity(UsbRate::Full, StorageProtocol::Bot))));
}

TEST_CASE("device strings with ESC/BEL never reach doctor's text raw; invalid UTF-8 never breaks its JSON") {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4", PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 5.0, .max_width = 1});
  auto ctrl = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                           PcieLink{.speed_gts = 5.0, .width = 1, .max_speed_gts = 5.0, .max_width = 1}, {},
                           "ASM1042\x1b]0;owned\a");
  auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High);
  auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super);
  m.paired_ports(u1, "usb3", u2, "usb4", 2);
  const auto evil = m.drive(Machine::port_path(u2, "usb4", 1),
                            {.name = "4-1", .vid = 0x1234, .pid = 0x5678, .product = "Evil\x1b[31m SSD\a",
                             .speed = UsbSpeed::Super, .driver = "usb-storage", .disk = "sdb"});
  // Raw in the evidence and the message: the renderers, not the check, make it safe.
  m.node(evil + "/4-1:1.0").as<InterfaceInfo>().uas_blocked_reason = "firmware says \xff\xfe\x1b[2J";
  m.drive(Machine::port_path(u2, "usb4", 2), {.name = "4-2", .product = "Bad \xff\xfe UTF-8",
                                               .speed = UsbSpeed::Super, .disk = "sdc", .power_control = "auto"});
  const auto t = m.finish();
  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(t, {.uas_driver_loaded = true, .predictor = &model});
  REQUIRE(!r.findings.empty());
  const report::DoctorReportInput in{r.findings, {}, r.controllers_checked, r.drives_checked};
  const auto text = report::render_doctor_text(in);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\a') == std::string::npos);
  CHECK(text.find('\xff') == std::string::npos);
  CHECK(contains(text, "Evil\\x1b[31m SSD\\x07"));  // shown, escaped
  std::string json;
  REQUIRE_NOTHROW(json = report::render_doctor_json(in));
  const auto doc = nlohmann::json::parse(json);  // valid UTF-8, valid JSON
  CHECK(doc.at("findings").size() == r.findings.size());
  CHECK(json.find('\x1b') == std::string::npos);
  CHECK(json.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD where the invalid bytes were
}
