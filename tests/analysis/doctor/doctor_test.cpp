// The doctor's findings over in-memory topologies: each fires on its evidence and stays quiet on healthy
// devices; the workstation machine gives exactly the expected findings; results are deterministic.
#include <doctest/doctest.h>

#include "tests/support/golden.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report/doctor_report.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "tests/support/machines.hpp"
#include "topology/bandwidth.hpp"

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
  std::vector<analysis::doctor::DriveShare> predict(const topology::Topology&) const override {
    return shares_;
  }

 private:
  std::vector<analysis::doctor::DriveShare> shares_;
};

}  // namespace

TEST_CASE("a UAS SSD at 10 Gb/s on a USB3 connector gives no finding at all") {
  const auto t = healthy_ssd();
  const auto r = diagnose(t, {.usb_storage_quirks = "", .uas_driver_loaded = true});
  CHECK(r.findings.empty());
  CHECK(r.drives_checked == 1);
  CHECK(r.controllers_checked == 1);
  CHECK(!report::worst_severity(r.findings));
  const auto text = report::render_doctor_text({r.findings, {}, r.controllers_checked, r.drives_checked});
  CHECK(contains(text, "no findings"));
}

TEST_CASE("workstation: exactly the expected findings, in severity order") {
  const auto t = workstation();
  const auto r = diagnose(t, {.usb_storage_quirks = kWorkstationQuirks, .uas_driver_loaded = true});
  CHECK(ids(r.findings) == std::vector<std::string>{"speed_below_capability", "uas_inactive"});
  CHECK(r.drives_checked == 4);  // sdb, sdc, sdd, sde; not SATA sda nor nvme0n1

  const auto& slow = only(r.findings, "speed_below_capability");
  CHECK(slow.severity == FindingSeverity::Problem);
  CHECK(slow.devices == std::vector<std::string>{"sde", "1-4"});
  CHECK(evidence(slow, "1-4/speed") == "480");
  CHECK(evidence(slow, "1-4/version (capable speed)") == "5000");  // bcdUSB 3.20, no BOS
  CHECK(evidence(slow, "usb1-port4/peer") == "(none)");
  CHECK(contains(slow.message, "usb1-port4 is USB 2.0 only"));
  // Free connectors of the same controller with a USB3 side: every root connector is taken (hub, SSD,
  // keyboard), so ports 3 and 4 of the hub pair (1 and 2 hold sdc and sdd).
  CHECK(evidence(slow, "free connectors at full speed (same controller)") ==
        "1-1-port3 (USB3 side 2-1-port3), 1-1-port4 (USB3 side 2-1-port4)");
  CHECK(contains(slow.fix, "Move it to 1-1-port3"));

  const auto& uas = only(r.findings, "uas_inactive");
  CHECK(uas.severity == FindingSeverity::Info);  // a deliberate quirk
  CHECK(uas.devices == std::vector<std::string>{"sdc", "2-1.1"});
  CHECK(evidence(uas, "usb_storage.quirks") == "152d:0578:u");
  CHECK(evidence(uas, "2-1.1:1.0/driver") == "usb-storage");
  CHECK(evidence(uas, "2-1.1:1.0/descriptors (alt settings)") == "alt 0: 08/06/50; alt 1: 08/06/62");
  CHECK(contains(uas.message, "152d:0578"));
  CHECK(contains(uas.fix, "Risk"));
  CHECK(contains(uas.fix, "remove 152d:0578:u"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Problem);
}

TEST_CASE("workstation renders to the golden text and JSON") {
  const auto t = workstation();
  const auto r = diagnose(t, {.usb_storage_quirks = kWorkstationQuirks, .uas_driver_loaded = true});
  const report::DoctorReportInput in{r.findings, {}, r.controllers_checked, r.drives_checked};
  check_golden("doctor_workstation.txt", report::render_doctor_text(in));
  check_golden("doctor_workstation.json", report::render_doctor_json(in));
}

TEST_CASE("diagnose is deterministic") {
  // Each call, on a machine built anew or on the same one, gives these exact findings in this order.
  auto summary = [](const analysis::doctor::DoctorResult& r) {
    std::string s;
    for (const auto& f : r.findings) {
      s += f.id + "(" + std::string(report::to_string(f.severity)) + "):";
      for (const auto& d : f.devices) s += " " + d;
      s += ";";
    }
    return s;
  };
  for (int i = 0; i < 2; ++i)
    CHECK(summary(diagnose(workstation(), {.usb_storage_quirks = kWorkstationQuirks})) ==
          "speed_below_capability(problem): sde 1-4;uas_inactive(info): sdc 2-1.1;");
  const auto t = workstation();
  // Without the quirk in the configuration, the BOT binding has no known reason: a warning.
  for (int i = 0; i < 2; ++i)
    CHECK(summary(diagnose(t)) ==
          "speed_below_capability(problem): sde 1-4;uas_inactive(warning): sdc 2-1.1;");
}

TEST_CASE("uas_inactive: reasons and severities") {
  auto build = [](std::uint16_t vid, std::uint16_t pid, UsbSpeed speed, bool uas_capable,
                  std::string driver) {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(is_superspeed(speed) ? h.usb3 : h.usb2, 1),
            {.vid = vid,
             .pid = pid,
             .speed = speed,
             .bcd_usb = 0x320,
             .capable = speed,
             .capable_from_bos = true},
            {.name = "sdd"}, {.driver = std::move(driver), .uas_alt = uas_capable});
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
    const auto ohci = m.controller(std::nullopt, "0000:00:12.0", HcdKind::Ohci);
    const auto u3 = m.root_hub(ohci, 3, UsbSpeed::Full, 1);
    m.drive(Machine::port_of(u3, 1),
            {.speed = UsbSpeed::Full, .bcd_usb = 0x320, .capable = UsbSpeed::Full, .capable_from_bos = true},
            {.name = "sdd"}, {.driver = "usb-storage", .uas_alt = true});
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
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdd"},
            {.driver = "usb-storage", .uas_alt = true, .uas_blocked_reason = "some reason the scanner saw"});
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
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb2, 2),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sde"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Problem);
    CHECK(contains(f.message, "has a USB3 side (usb2-port2)"));
    CHECK(evidence(f, "usb1-port2/peer") == "usb2-port2");
    CHECK(contains(f.fix, "usb1-port1"));  // free, with a USB3 side
  }
  SUBCASE("a USB3 peer marked 'not used' makes the connector USB2-only") {
    Machine m;
    const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 7);
    const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 7);
    m.peer(Machine::port_of(u1, 7), Machine::port_of(u2, 7));
    m.port(Machine::port_of(u2, 7)).connect_type = "not used";
    m.drive(Machine::port_of(u1, 7),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdc"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(
        f.message,
        "connector usb1-port7 is USB 2.0 only (the firmware marks its USB3 peer usb2-port7 as not used)"));
    CHECK(evidence(f, "usb2-port7/connect_type") == "not used");
  }
  SUBCASE("10G drive at 5G on a Gen 1 controller: names the controller, suggests another one") {
    Machine m;
    const auto gen1 = intel_xhci(m, UsbSpeed::Super, "0000:00:14.0", 1);
    intel_xhci(m, UsbSpeed::SuperPlus, "0000:05:00.0", 3);
    m.drive(Machine::port_of(gen1.usb3, 1),
            {.speed = UsbSpeed::Super, .capable = UsbSpeed::SuperPlus, .capable_from_bos = true},
            {.name = "sdf"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.message, "USB 3.2 Gen 1 controller"));
    CHECK(evidence(f, "free connectors at full speed (other controllers)") ==
          "usb3-port1 (USB3 side usb4-port1), usb3-port2 (USB3 side usb4-port2), usb3-port3 (USB3 side "
          "usb4-port3), "
          "usb3-port4 (USB3 side usb4-port4)");
  }
  SUBCASE("16 free connectors elsewhere: the evidence names 8 and counts the rest (issue 24: 33 MB)") {
    Machine m;
    const auto gen1 = intel_xhci(m, UsbSpeed::Super, "0000:00:14.0", 1);
    for (unsigned i = 0; i < 4; ++i)
      intel_xhci(m, UsbSpeed::SuperPlus, fmt::format("0000:0{}:00.0", i + 5), 3 + 2 * i);
    m.drive(Machine::port_of(gen1.usb3, 1),
            {.speed = UsbSpeed::Super, .capable = UsbSpeed::SuperPlus, .capable_from_bos = true},
            {.name = "sdf"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    const auto listed = evidence(f, "free connectors at full speed (other controllers)");
    CHECK(listed.starts_with("usb3-port1 (USB3 side usb4-port1), "));
    CHECK(listed.ends_with("usb5-port4 (USB3 side usb6-port4) and 8 more"));
    CHECK(std::count(listed.begin(), listed.end(), '(') == 8);
    CHECK(contains(f.fix, "(13 more, 5 of them in the evidence)"));
  }
  SUBCASE("bcdUSB 3.20 without BOS does not prove 10 Gb/s") {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1),
            {.speed = UsbSpeed::Super,
             .bcd_usb = 0x320,
             .capable = UsbSpeed::SuperPlus,
             .capable_from_bos = false},
            {.name = "sdg"});
    CHECK(diagnose(m.finish()).findings.empty());
  }
  SUBCASE("connectors marked 'not used' and occupied ones are never suggested") {
    Machine m;
    const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 2);
    const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 1);
    m.pair_ports(u1, u2, 1);
    m.port(Machine::port_of(u2, 1)).connect_type = "not used";
    m.drive(Machine::port_of(u1, 2),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdh"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(f.fix, "No free connector on this machine runs at 5 Gb/s"));
  }
}

TEST_CASE("slow_hub_uplink: a 5G drive behind a USB2 hub, and two drives behind one USB3 hub") {
  Machine m;
  const auto h = intel_xhci(m);
  // USB2-only hub 1-1 (480) with a 5G-capable drive on its port 1.
  const auto hub2 = m.hub(Machine::port_of(h.usb2, 1), {.product = "USB2.0 Hub", .speed = UsbSpeed::High}, 2);
  m.drive(Machine::port_of(hub2, 1),
          {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
          {.name = "sdb"});
  // USB3 hub 2-2 (5000) with two 5G drives.
  const auto hub3 = m.hub(Machine::port_of(h.usb3, 2), {.speed = UsbSpeed::Super}, 2);
  m.drive(Machine::port_of(hub3, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdc"});
  m.drive(Machine::port_of(hub3, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdd"});
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
  const auto h = intel_xhci(m);
  const UsbDev gen1{.speed = UsbSpeed::Super, .capable_from_bos = true};
  const auto a = m.drive(Machine::port_of(h.usb3, 1), gen1, {.name = "sdb"}).device;
  const auto b = m.drive(Machine::port_of(h.usb3, 2), gen1, {.name = "sdc"}).device;
  const auto c = m.drive(Machine::port_of(h.usb3, 3), gen1, {.name = "sdd"}).device;
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
                  {.link = {.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 8.0, .max_width = 4}});
    const auto ctrl =
        m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                     {.model = "ASM1042 SuperSpeed USB Host Controller",
                      .link = {.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 5.0, .max_width = 1}});
    const auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High, 2);
    const auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super, 2);
    m.pair_ports(u1, u2, 2);
    m.drive(Machine::port_of(u2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
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
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1),
            {.vid = 0x0bc2, .pid = 0xab38, .speed = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdc", .max_sectors_kb = cur, .max_hw_sectors_kb = hw});
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
  const auto h = intel_xhci(m);
  m.drive(Machine::port_of(h.usb3, 1),
          {.vid = 0x04e8,
           .pid = 0x4001,
           .speed = UsbSpeed::SuperPlus,
           .capable = UsbSpeed::SuperPlus,
           .capable_from_bos = true,
           .power_control = "auto"},
          {.name = "sda", .max_sectors_kb = 1024, .max_hw_sectors_kb = 32767});
  // A non-storage device with autosuspend is not our business.
  m.device(Machine::port_of(h.usb2, 5), {.speed = UsbSpeed::Full, .power_control = "auto"});
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
  const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
  const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 2);
  const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 2);
  m.pair_ports(u1, u2, 2);
  m.port(Machine::port_of(u1, 1)).over_current_count = 3u;
  m.port(Machine::port_of(u1, 1)).physical_location =
      PhysicalLocation{.panel = "back", .vertical_position = "upper", .horizontal_position = "left"};
  m.port(Machine::port_of(u2, 2)).over_current_count = 1u;
  m.drive(Machine::port_of(u2, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
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
  auto build = [](std::uint16_t bcd_usb) {
    Machine m;
    const auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci, {}, {"0000:00:1d.0"});
    const auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci, {}, {"0000:00:1d.7"});
    const auto u5 = m.root_hub(ehci, 5, UsbSpeed::High, 1);
    const auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full, 2);
    m.port(Machine::port_of(u5, 1)).peer = Machine::port_of(u1, 1);
    m.drive(Machine::port_of(u1, 1),
            {.vid = 0x1043,
             .pid = 0x8012,
             .product = "Flash Drive",
             .speed = UsbSpeed::Full,
             .bcd_usb = bcd_usb,
             .capable = UsbSpeed::Full,
             .capable_from_bos = true},
            {.name = "sdb", .max_sectors_kb = 120, .max_hw_sectors_kb = 120},
            {.driver = "usb-storage", .uas_alt = false});
    // A low-speed mouse on the other UHCI port is not storage: no finding for it.
    m.device(Machine::port_of(u1, 2), {.speed = UsbSpeed::Low});
    return m.finish();
  };
  SUBCASE("USB 2.0 device: the EHCI should have it") {
    const auto r = diagnose(build(0x200));
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
    const auto r = diagnose(build(0x110));
    const auto& f = only(r.findings, "legacy_companion");
    CHECK(contains(f.message, "USB 1.1 (full speed) only"));
  }
  SUBCASE("the same stick on the EHCI at 480 is fine") {
    Machine m;
    const auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci);
    const auto u5 = m.root_hub(ehci, 5, UsbSpeed::High, 1);
    m.drive(Machine::port_of(u5, 1),
            {.speed = UsbSpeed::High, .bcd_usb = 0x200, .capable = UsbSpeed::High, .capable_from_bos = true},
            {.name = "sdb", .max_sectors_kb = 120, .max_hw_sectors_kb = 120},
            {.driver = "usb-storage", .uas_alt = false});
    CHECK(diagnose(m.finish()).findings.empty());
  }
}

TEST_CASE("the bandwidth model behind shared_bandwidth: two 5G drives on an ASM1042 behind PCIe 2.0 x1") {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                            {.link = {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4}});
  const auto ctrl =
      m.controller(rp, "0000:03:00.0", HcdKind::Xhci, {.model = "ASM1042", .link = pcie(5.0, 1)});
  const auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High, 2);
  const auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super, 2);
  m.pair_ports(u1, u2, 2);
  m.drive(Machine::port_of(u2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
  const auto t1 = m.finish();
  const analysis::doctor::ModelSharePredictor model;
  CHECK(diagnose(t1, {.predictor = &model}).findings.empty());  // one drive alone shares nothing

  Machine m2;
  const auto rp2 = m2.pci_hop(std::nullopt, "0000:00:1c.4",
                              {.link = {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4}});
  const auto ctrl2 =
      m2.controller(rp2, "0000:03:00.0", HcdKind::Xhci, {.model = "ASM1042", .link = pcie(5.0, 1)});
  const auto v1 = m2.root_hub(ctrl2, 3, UsbSpeed::High, 2);
  const auto v2 = m2.root_hub(ctrl2, 4, UsbSpeed::Super, 2);
  m2.pair_ports(v1, v2, 2);
  m2.drive(Machine::port_of(v2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
  m2.drive(Machine::port_of(v2, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdc"});
  const auto t2 = m2.finish();
  const auto r = diagnose(t2, {.predictor = &model});
  const auto& f = only(r.findings, "shared_bandwidth");
  CHECK(f.devices == std::vector<std::string>{"sdb", "4-1", "sdc", "4-2"});
  CHECK(contains(evidence(f, "bottleneck"), "0000:03:00.0"));
  CHECK(contains(f.fix, "No free connector avoids"));
  CHECK(report::worst_severity(r.findings) == report::FindingSeverity::Warning);
}

// ---- one table, one drive rule, one capacity, no findings on garbage, no raw control bytes
// ------------------

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
  const auto r = diagnose(workstation(), {.usb_storage_quirks = kWorkstationQuirks});
  REQUIRE(!r.findings.empty());
  for (const auto& f : r.findings) CHECK(std::find(table.begin(), table.end(), f.id) != table.end());
}

namespace {
/// A USB 2.0 four-slot card reader 1-6 on the xHCI's usb1-port6 with cards in slots 1 and 2 (sdb, sdc) and
/// empty slots 3 and 4 (sdd, sde: size 0); autosuspend on, so one per-device finding names its media.
Topology card_reader_two_cards() {
  Machine m;
  const auto h = intel_xhci(m);
  const Storage bot{.driver = "usb-storage", .uas_alt = false};
  const auto r = m.drive(Machine::port_of(h.usb2, 6),
                         {.vid = 0x058f,
                          .pid = 0x6377,
                          .product = "AU6375 Card Reader",
                          .speed = UsbSpeed::High,
                          .power_control = "auto"},
                         {.name = "sdb",
                          .size_bytes = 62333952ull * 512,
                          .max_sectors_kb = 1024,
                          .max_hw_sectors_kb = 32767,
                          .host = 6,
                          .lun = 0},
                         bot);
  const std::pair<const char*, std::uint64_t> slots[] = {{"sdc", 31166976ull * 512}, {"sdd", 0}, {"sde", 0}};
  unsigned lun = 1;
  for (const auto& [name, size] : slots)
    m.scsi_disk(r.interface, "usb-storage",
                {.name = name,
                 .size_bytes = size,
                 .max_sectors_kb = 1024,
                 .max_hw_sectors_kb = 32767,
                 .host = 6,
                 .lun = lun++});
  return m.finish();
}
}  // namespace

TEST_CASE("one drive rule: a card reader with two cards is two drives to doctor, as to plan and saturate") {
  const auto t = card_reader_two_cards();
  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(t, {.predictor = &model});
  // Counted as plan/saturate count them: one drive per medium, empty slots not at all.
  CHECK(analysis::common::usb_drives(t).size() == 4);
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
  // What `usbsat plan` uses: the model's flow problem over the same drives (make_problem).
  auto plan_capacity = [](const Topology& t) {
    using analysis::model::DemandSource;
    const std::vector<analysis::model::DemandSpec> specs{{"sda", std::nullopt, DemandSource::LinkCeiling},
                                                         {"sdb", std::nullopt, DemandSource::LinkCeiling}};
    for (const auto& res : analysis::model::make_problem(t, specs).resources)
      if (res.id == "pcie_link:0000:03:00.0") return res.capacity->mbs();
    return -1.0;
  };
  const analysis::doctor::ModelSharePredictor model;
  SUBCASE("trained at 5 GT/s: the shared_bandwidth figure") {
    const auto t = asm1042_card();
    const double plan = plan_capacity(t);
    CHECK(plan == doctest::Approx(400.0));
    const auto r = diagnose(t, {.predictor = &model});
    CHECK(evidence(only(r.findings, "shared_bandwidth"), "bottleneck capacity (MB/s)") ==
          fmt::format("{:.0f}", plan));
  }
  SUBCASE("trained at 2.5 GT/s of 5: pcie_link_degraded and shared_bandwidth say what plan says") {
    Machine m;
    const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                              {.link = {.speed_gts = 2.5, .width = 1, .max_speed_gts = 8.0, .max_width = 1}});
    const auto x = m.controller(
        rp, "0000:03:00.0", HcdKind::Xhci,
        {.model = "ASM1042", .link = {.speed_gts = 2.5, .width = 1, .max_speed_gts = 5.0, .max_width = 1}});
    const auto u3 = m.root_hub(x, 3, UsbSpeed::High, 2);
    const auto u4 = m.root_hub(x, 4, UsbSpeed::Super, 2);
    m.pair_ports(u3, u4, 2);
    m.drive(Machine::port_of(u4, 1), {.speed = UsbSpeed::Super}, {.name = "sda"});
    m.drive(Machine::port_of(u4, 2), {.speed = UsbSpeed::Super}, {.name = "sdb"});
    const auto t = m.finish();
    const double plan = plan_capacity(t);
    CHECK(plan == doctest::Approx(200.0));
    const auto r = diagnose(t, {.predictor = &model});
    CHECK(evidence(only(r.findings, "shared_bandwidth"), "bottleneck capacity (MB/s)") ==
          fmt::format("{:.0f}", plan));
    CHECK(contains(only(r.findings, "pcie_link_degraded").message,
                   fmt::format("about {:.0f} MB/s instead", plan)));
  }
}

TEST_CASE("garbage values never produce a confident finding") {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr unsigned kMax = std::numeric_limits<unsigned>::max();
  // An ASM1042-like card (x1 at 5 GT/s of x1 at 5 GT/s: healthy) with one 5G drive; each row breaks one
  // value.
  auto card = [](PcieLink ctrl_link, Disk disk = {.name = "sdb"},
                 std::function<void(Machine&, const DriveNodes&)> tweak = {}) {
    Machine m;
    const auto x =
        m.controller(std::nullopt, "0000:03:00.0", HcdKind::Xhci, {.model = "ASM1042", .link = ctrl_link});
    const auto u3 = m.root_hub(x, 3, UsbSpeed::High, 2);
    const auto u4 = m.root_hub(x, 4, UsbSpeed::Super, 2);
    m.pair_ports(u3, u4, 2);
    const auto d = m.drive(Machine::port_of(u4, 1), {.speed = UsbSpeed::Super}, disk);
    if (tweak) tweak(m, d);
    return m.finish();
  };
  auto link = [](std::optional<double> cur, std::optional<unsigned> w, std::optional<double> max,
                 std::optional<unsigned> max_w) {
    return PcieLink{.speed_gts = cur, .width = w, .max_speed_gts = max, .max_width = max_w};
  };
  // A USB 2.0-connected 5G drive whose port usb1-port2 has the peer attribute `peer(its own syspath)`.
  auto usb2_drive = [](std::function<std::string(const std::string&)> peer) {
    Machine m;
    const auto x = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(x, 1, UsbSpeed::High, 2);
    m.root_hub(x, 2, UsbSpeed::Super, 2);
    const auto self = Machine::port_of(u1, 2);
    m.port(self).peer = peer(self);
    m.drive(self, {.speed = UsbSpeed::High, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdb"});
    return m.finish();
  };
  struct Row {
    const char* what;
    std::function<Topology()> build;
    const char* no_id;      ///< this finding must not appear (nullptr: any may)
    const char* no_text;    ///< ... and no finding may say this (nullptr: nothing)
    const char* must_text;  ///< a finding that does appear must say this ("unknown"); nullptr: none
  };
  const Disk sdb{.name = "sdb"};
  const std::vector<Row> rows{
      {"max_link_speed inf", [&] { return card(link(5.0, 1, kInf, 1)); }, "pcie_link_degraded", "inf",
       nullptr},
      {"max_link_speed NaN", [&] { return card(link(5.0, 1, std::nan(""), 1)); }, "pcie_link_degraded", "nan",
       nullptr},
      {"max_link_speed 1e308", [&] { return card(link(5.0, 1, 1e308, 1)); }, "pcie_link_degraded", "e+308",
       nullptr},
      {"current_link_speed inf", [&] { return card(link(kInf, 1, 8.0, 1)); }, "pcie_link_degraded", "inf",
       nullptr},
      {"max_link_width 4294967295", [&] { return card(link(5.0, 1, 5.0, kMax)); }, "pcie_link_degraded",
       "4294967295", nullptr},
      {"current_link_width 4294967295", [&] { return card(link(5.0, kMax, 8.0, 4)); }, "pcie_link_degraded",
       "4294967295", nullptr},
      {"device speed unknown",
       [&] {
         return card(pcie(5.0, 1), sdb, [](Machine& m, const DriveNodes& d) {
           m.node(d.device).as<UsbDeviceInfo>().speed = UsbSpeed::Unknown;
           m.node(d.device).as<UsbDeviceInfo>().capable_speed = UsbSpeed::SuperPlus;
         });
       },
       "speed_below_capability", "0 Mb/s", nullptr},
      {"max_hw_sectors_kb 4294967295",
       [&] { return card(pcie(5.0, 1), {.name = "sdb", .max_sectors_kb = 120, .max_hw_sectors_kb = kMax}); },
       "max_sectors_below_hw", "4294967295", nullptr},
      {"max_sectors_kb 0", [&] { return card(pcie(5.0, 1), {.name = "sdb", .max_sectors_kb = 0}); },
       "max_sectors_below_hw", nullptr, nullptr},
      {"queue_depth 4294967295", [&] { return card(pcie(5.0, 1), {.name = "sdb", .queue_depth = kMax}); },
       nullptr, "4294967295", nullptr},
      {"size that wrapped x512",
       [&] {
         return card(pcie(5.0, 1),
                     {.name = "sdb", .size_bytes = std::numeric_limits<std::uint64_t>::max() - 511});
       },
       nullptr, "18446744073709551104", nullptr},
      {"over_current_count 4294967295",
       [&] {
         return card(pcie(5.0, 1), sdb, [](Machine& m, const DriveNodes& d) {
           m.port(Machine::port_of(d.device.substr(0, d.device.rfind('/')), 1)).over_current_count = kMax;
         });
       },
       "overcurrent", "4294967295", nullptr},
      {"dangling peer",
       [&] {
         return usb2_drive([](const std::string&) { return std::string("/sys/devices/gone/usb2-port2"); });
       },
       nullptr, "USB 2.0 only", "unknown"},
      {"self-referencing peer", [&] { return usb2_drive([](const std::string& self) { return self; }); },
       nullptr, "USB 2.0 only", "unknown"},
      {"root hub speed unknown",
       [&] {
         Machine m;
         const auto x = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
         const auto u1 = m.root_hub(x, 1, UsbSpeed::Unknown, 2);
         m.drive(Machine::port_of(u1, 2),
                 {.speed = UsbSpeed::High, .capable = UsbSpeed::Super, .capable_from_bos = true},
                 {.name = "sdb"});
         return m.finish();
       },
       nullptr, "USB 2.0 only", "unknown"},
  };
  for (const auto& row : rows) {
    CAPTURE(std::string(row.what));
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

TEST_CASE("garbage: a device behind a missing root hub and controller gets no cause it cannot know") {
  // The port's hub (and the controller above it) were never scanned: the port is a root of its own.
  TopologyBuilder b;
  const std::string port = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-0:1.0/usb1-port2";
  const std::string dev = port + "/1-2", intf = dev + "/1-2:1.0", scsi = intf + "/host6/target6:0:0/6:0:0:0";
  REQUIRE(b.add(
      {NodeKind::Port, PortInfo{.syspath = port, .name = "usb1-port2", .number = 2, .hub_name = "usb1"}},
      std::nullopt));
  UsbDeviceInfo u{.syspath = dev, .name = "1-2"};
  u.speed = UsbSpeed::High;
  u.capable_speed = UsbSpeed::Super;
  u.capable_from_bos = true;
  REQUIRE(
      b.add({NodeKind::Device, u}, port, {.kind = LinkKind::Usb, .usb_speed = UsbSpeed::High, .lanes = 1}));
  InterfaceInfo i{.syspath = intf, .name = "1-2:1.0", .driver = "usb-storage"};
  i.interface_class = 0x08;
  i.storage = StorageProtocol::Bot;
  REQUIRE(b.add({NodeKind::Interface, i}, dev));
  REQUIRE(b.add({NodeKind::ScsiDevice, ScsiDeviceInfo{.syspath = scsi, .hctl = "6:0:0:0"}}, intf));
  REQUIRE(b.add({NodeKind::Block, BlockInfo{.syspath = scsi + "/block/sdb",
                                            .name = "sdb",
                                            .devnode = "/dev/sdb",
                                            .usb = true,
                                            .transport = "usb"}},
                scsi));
  std::vector<Diagnostic> diags;
  const auto t = std::move(b).finish(diags);
  const auto r = diagnose(t);
  CHECK(r.drives_checked == 1);
  const auto& f = only(r.findings, "speed_below_capability");
  CHECK(contains(f.message, "the cause is unknown: its host controller is missing from the scan"));
  CHECK(!contains(f.message, "USB 2.0 only"));
}

TEST_CASE("legacy_companion: a blank version string is no reason to crash") {
  Machine m;
  const auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci);
  const auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full, 2);
  const auto d = m.drive(Machine::port_of(u1, 1), {.speed = UsbSpeed::Full, .bcd_usb = 0x200},
                         {.name = "sdb"}, {.driver = "usb-storage", .uas_alt = false});
  m.node(d.device).as<UsbDeviceInfo>().version = "    ";
  const auto r = diagnose(m.finish());
  const auto& f = only(r.findings, "legacy_companion");
  CHECK(contains(f.message, "the device is USB 2.0 and could run at 480 Mb/s"));
  // The figure is the bandwidth model's for one Bulk-Only drive at full speed.
  CHECK(contains(f.message, fmt::format("about {} at best",
                                        *topology::usb_drive_capacity(UsbRate::Full, StorageProtocol::Bot))));
}

TEST_CASE(
    "device strings with ESC or BEL never reach doctor's text raw, invalid UTF-8 never breaks its JSON") {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4", {.link = pcie(5.0, 1)});
  const auto x = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                              {.model = "ASM1042\x1b]0;owned\a", .link = pcie(5.0, 1)});
  const auto u3 = m.root_hub(x, 3, UsbSpeed::High, 2);
  const auto u4 = m.root_hub(x, 4, UsbSpeed::Super, 2);
  m.pair_ports(u3, u4, 2);
  // Raw in the evidence and the message: the renderers, not the check, make it safe.
  m.drive(Machine::port_of(u4, 1),
          {.vid = 0x1234, .pid = 0x5678, .product = "Evil\x1b[31m SSD\a", .speed = UsbSpeed::Super},
          {.name = "sdb"},
          {.driver = "usb-storage", .uas_alt = true, .uas_blocked_reason = "firmware says \xff\xfe\x1b[2J"});
  m.drive(Machine::port_of(u4, 2),
          {.product = "Bad \xff\xfe UTF-8", .speed = UsbSpeed::Super, .power_control = "auto"},
          {.name = "sdc"});
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
