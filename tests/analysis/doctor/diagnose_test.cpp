// diagnose() as a whole: the check table, exact findings on the workstation, determinism, one drive rule, one
// capacity per link, and no confident finding on garbage values.
#include <doctest/doctest.h>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/doctor/checks.hpp"
#include "src/analysis/model/predict.hpp"
#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("a UAS SSD at 10 Gb/s on a USB3 connector gives no finding at all") {
  const auto t = healthy_ssd();
  const auto r = diagnose(t, {.usb_storage_quirks = "", .uas_driver_loaded = true});
  CHECK(r.findings.empty());
  CHECK(r.drives_checked == 1);
  CHECK(r.controllers_checked == 1);
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
  CHECK(worst(r.findings) == FindingSeverity::Problem);
}

TEST_CASE("diagnose is deterministic") {
  // Each call, on a machine built anew or on the same one, gives these exact findings in this order.
  auto summary = [](const analysis::doctor::DoctorResult& r) {
    static constexpr const char* kSeverity[] = {"info", "warning", "problem"};  // FindingSeverity's order
    std::string s;
    for (const auto& f : r.findings) {
      s += f.id + "(" + kSeverity[static_cast<int>(f.severity)] + "):";
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

TEST_CASE("the check table: one row per stable finding id, in presentation order") {
  std::vector<std::string> table;
  for (const auto& row : analysis::doctor::check_table()) table.emplace_back(row.id);
  CHECK(table == std::vector<std::string>{"legacy_companion", "overcurrent", "speed_below_capability",
                                          "uas_inactive", "slow_hub_uplink", "shared_bandwidth",
                                          "pcie_link_degraded", "usb4_link_below_capability",
                                          "usb4_tunnel_displays", "tb_dock_pcie_narrow",
                                          "usb4_bus_not_visible", "max_sectors_below_hw", "autosuspend"});
  // Every finding carries the id of the row that made it.
  const auto r = diagnose(workstation(), {.usb_storage_quirks = kWorkstationQuirks});
  REQUIRE(!r.findings.empty());
  for (const auto& f : r.findings) CHECK(std::find(table.begin(), table.end(), f.id) != table.end());
}

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
}

TEST_CASE("one capacity per link: doctor and plan give the ASM1042's PCIe 2.0 x1 link the same figure") {
  // What `usbsat plan` uses: the model's flow problem over the same drives (make_problem).
  auto plan_capacity = [](const Topology& t) {
    using analysis::model::DemandSource;
    const std::vector<analysis::model::DemandSpec> specs{
        {"sda", std::nullopt, topology::Basis{DemandSource::LinkCeiling}},
        {"sdb", std::nullopt, topology::Basis{DemandSource::LinkCeiling}}};
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
    // Two hard disks (~140 MB/s each, estimated) fit it: the INFO names the same figure as the link's.
    CHECK(evidence(only(r.findings, "shared_bandwidth"), "shared link capacity (MB/s)") ==
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
