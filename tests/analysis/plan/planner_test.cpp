// The planner over in-memory machines (tests/support/machines.hpp): rate parsing, slots, the search's
// choices and its determinism. The scanned-fixture cases live in plan_fixture_test.cpp.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "src/analysis/plan/demands.hpp"
#include "src/analysis/plan/planner.hpp"
#include "src/analysis/plan/question.hpp"
#include "tests/support/machines.hpp"
#include "topology/capacity/usb4_tunnels.hpp"

using namespace usbsat;
using namespace usbsat::analysis::model;
using namespace usbsat::analysis::plan;

TEST_CASE("preferences round-trip") {
  for (auto p : {PlanPreference::Speed, PlanPreference::Uas, PlanPreference::FewMoves})
    CHECK(parse_preference(to_string(p)) == p);
  CHECK_FALSE(parse_preference("fastest"));
}

TEST_CASE("asm1042 card alone: two hard disks fit the x1 link, as fast as their links they would share it") {
  const auto t = testing::asm1042_card();
  PlanRequest req;
  req.devices = {"sda", "/dev/sdb"};
  // Estimated from the medium (portable hard disks, ~140 MB/s each): 280 of the link's 400, nothing shared.
  const auto disks = make_plan(t, req);
  REQUIRE(disks.placements.size() == 2);
  CHECK(disks.moves == 0);
  for (const auto& p : disks.placements) {
    CHECK(p.prediction.basis.kind == topology::BasisKind::Estimated);
    CHECK(p.prediction.predicted.mbs() == doctest::Approx(140.0));
    CHECK_FALSE(p.prediction.bottleneck);
  }
  // At their links' ceilings (given): they share the x1 link, nothing free for a third.
  req.demand = Bandwidth::from_mbs(400);
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 2);
  CHECK(plan.moves == 0);
  CHECK(plan.placements[1].drive == "sdb");
  for (const auto& p : plan.placements) {
    CHECK(p.prediction.predicted.mbs() == doctest::Approx(200.0));
    REQUIRE(p.prediction.bottleneck);
    CHECK(p.prediction.bottleneck->kind == topology::ResourceKind::PcieLink);
  }
  CHECK(plan.min.mbs() == doctest::Approx(200.0));
  CHECK(plan.method == "exhaustive");

  PlanRequest more;
  more.new_drives = 1;
  const auto none = make_plan(t, more);
  CHECK(none.placements.empty());
  REQUIRE_FALSE(none.diagnostics.empty());
  CHECK(none.diagnostics[0].severity == topology::Severity::Error);
}

TEST_CASE("unknown drives are diagnostics, not placements") {
  const auto t = testing::asm1042_card();
  PlanRequest req;
  req.devices = {"sdz"};
  const auto plan = make_plan(t, req);
  CHECK(plan.placements.empty());
  REQUIRE(plan.diagnostics.size() == 1);
  CHECK(plan.diagnostics[0].where == "sdz");
}

TEST_CASE("legacy ICH: new drives share the EHCI bus rather than take a 12 Mb/s companion port") {
  const auto t = testing::legacy_ehci();
  // Free: EHCI usb5 ports 2-4 (one 40 MB/s bus), UHCI usb1 port 1 and usb2 ports 1-2 (USB 1.1 only).
  const auto slots = usable_slots(t, {});
  CHECK(slots.size() == 6);
  PlanRequest req;
  req.new_drives = 2;
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 2);
  for (const auto& p : plan.placements) {
    CHECK(t[t.connectors()[p.connector].controller].as<topology::ControllerInfo>().bdf == "0000:00:1d.7");
    CHECK(p.prediction.predicted.mbs() == doctest::Approx(20.0));
    REQUIRE(p.prediction.bottleneck);
    CHECK(p.prediction.bottleneck->kind == topology::ResourceKind::UsbBus);
  }
  std::set<std::string> kinds;
  for (const auto& a : plan.avoid) kinds.insert(a.kind);
  CHECK(kinds.count("usb1_only") == 1);
  CHECK(kinds.count("shared_link") == 1);  // the EHCI bus usb5: 40 MB/s for three free ports
}

TEST_CASE("legacy ICH: re-placing the hub's sticks moves them off the hub onto free root ports") {
  const auto t = testing::legacy_ehci();
  PlanRequest req;
  req.devices = {"sdb", "sdc"};
  req.demand = Bandwidth::from_mbs(30);
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 2);
  REQUIRE(plan.current);
  // Now: both behind the hub's 40 MB/s uplink, 20 each. Anywhere on usb5 it is still one 40 MB/s bus:
  // no gain, so nothing moves (fewer moves break the tie).
  CHECK(plan.current->aggregate.mbs() == doctest::Approx(40.0));
  CHECK(plan.min.mbs() == doctest::Approx(20.0));
  CHECK(plan.moves == 0);
}

// A Raspberry Pi 4's VL805 in the small: the USB 2.0 root port is hardwired to an internal hub and peered
// with a SuperSpeed port a drive is plugged into. The connector's SuperSpeed side is still a place for a
// drive.
TEST_CASE(
    "a connector with a hardwired USB 2.0 side: its SuperSpeed side is a place, moves count what moved") {
  testing::Machine m;
  const auto x = m.controller(std::nullopt, "0000:01:00.0", topology::HcdKind::Xhci,
                              {.vid = 0x1106,
                               .did = 0x3483,
                               .model = "VL805/806 xHCI USB 3.0 Controller",
                               .link = testing::pcie(5.0, 1)});
  const auto u1 = m.root_hub(x, 1, topology::UsbSpeed::High, 1);
  const auto u2 = m.root_hub(x, 2, topology::UsbSpeed::Super, 2);
  m.pair_ports(u1, u2, 1);
  m.port(testing::Machine::port_of(u1, 1)).connect_type = "hardwired";
  const auto hub =
      m.hub(testing::Machine::port_of(u1, 1), {.vid = 0x2109, .pid = 0x3431, .product = "USB2.0 Hub"}, 4);
  const testing::UsbDev ssd{.vid = 0x174c,
                            .pid = 0x55aa,
                            .product = "ASM1153E",
                            .speed = topology::UsbSpeed::Super,
                            .bcd_usb = 0x310};
  m.drive(testing::Machine::port_of(u2, 1), ssd,
          {.name = "sda", .size_bytes = 120 * testing::kGB, .host = 0});
  m.drive(testing::Machine::port_of(u2, 2), ssd,
          {.name = "sdb", .size_bytes = 120 * testing::kGB, .host = 1});
  // A card reader soldered to the internal hub's port 4: its own connector is no place to plan a drive onto.
  const auto hub_port4 = testing::Machine::port_of(hub, 4);
  m.port(hub_port4).connect_type = "hardwired";
  m.drive(hub_port4, {.vid = 0x0bda, .pid = 0x0158, .product = "Card Reader"},
          {.name = "sdc", .size_bytes = 32 * testing::kGB, .host = 2});
  const auto t = m.finish();

  PlanRequest req;
  req.devices = {"sda", "sdb", "sdc"};
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 3);
  CHECK(plan.placements[2].moved);  // the card reader's drive has to go somewhere else
  unsigned moved = 0;
  for (const auto& p : plan.placements) moved += p.moved ? 1 : 0;
  CHECK(plan.moves == moved);
  CHECK_FALSE(plan.placements[0].moved);  // sda's SuperSpeed port is the best there is: it stays
  CHECK(plan.placements[0].superspeed);
}

TEST_CASE("--prefer few-moves keeps drives in place when moving gains less than 10%") {
  const auto t = testing::legacy_ehci();
  PlanRequest req;
  req.devices = {"sdb"};
  req.prefer = PlanPreference::FewMoves;
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 1);
  CHECK_FALSE(plan.placements[0].moved);
}

TEST_CASE(
    "workstation: the free SuperSpeed ports are behind the hub, and two drives there share its uplink") {
  const auto t = testing::workstation();
  PlanRequest req;
  req.new_drives = 1;
  const auto one = make_plan(t, req);
  REQUIRE(one.placements.size() == 1);
  const auto& p = one.placements[0];
  CHECK(p.superspeed);
  CHECK(p.rate == topology::UsbRate::Gen1);
  CHECK(p.protocol == topology::StorageProtocol::Uas);
  CHECK(t[t.connectors()[p.connector].hub].kind == topology::NodeKind::Hub);
  CHECK(p.prediction.predicted.mbs() == doctest::Approx(400.0));

  req.new_drives = 2;
  const auto two = make_plan(t, req);
  REQUIRE(two.placements.size() == 2);
  for (const auto& x : two.placements) {
    CHECK(x.prediction.predicted.mbs() == doctest::Approx(200.0));
    REQUIRE(x.prediction.bottleneck);
    CHECK(x.prediction.bottleneck->kind == topology::ResourceKind::HubUplink);
    CHECK(x.prediction.bottleneck->node == "2-1");
  }
  bool hub_note = false;
  for (const auto& a : two.avoid) hub_note = hub_note || (a.kind == "shared_link" && a.node == "2-1");
  CHECK(hub_note);
}

TEST_CASE("determinism: identical requests give identical plans") {
  const auto t = testing::workstation();
  for (unsigned n = 1; n <= 3; ++n) {
    PlanRequest req;
    req.new_drives = n;
    req.demand = Bandwidth::from_mbs(400);
    // Two plans for the same request: the same placements, figures and search size, pinned.
    const char* expected[] = {"1-1-port3@400000000 evaluated 1",
                              "1-1-port3@200000000 1-1-port4@200000000 evaluated 1",
                              "evaluated 0"};  // two free SuperSpeed connectors only
    for (int run = 0; run < 2; ++run) {
      const auto p = make_plan(t, req);
      std::string s;
      for (const auto& pl : p.placements)
        s +=
            t.connectors()[pl.connector].id + "@" + std::to_string(pl.prediction.predicted.bytes_per_s) + " ";
      s += "evaluated " + std::to_string(p.evaluated);
      CAPTURE(n);
      CHECK(s == expected[n - 1]);
    }
  }
}

// ---- hold-out A75 layout (issue "The main job end to end in CI") ------------------------------------------

namespace {

namespace tp = usbsat::topology;
using testing::Machine;

/// A Kingston HyperX stick (USB 3.0, BOT only) plugged into `port`, with whole disk `name`.
void hyperx(Machine& m, const std::string& port, const std::string& name, unsigned host) {
  const std::string serial = "HYPERX000" + std::to_string(host);
  m.drive(port,
          {.vid = 0x0951,
           .pid = 0x1689,
           .manufacturer = "Kingston",
           .product = "HyperX Savage",
           .serial = serial,
           .speed = tp::UsbSpeed::Super,
           .bcd_usb = 0x310,
           .max_power_ma = 504},
          {.name = name,
           .size_bytes = 64 * testing::kGB,
           .vendor = "Kingston",
           .model = "HyperX Savage",
           .serial = serial,
           .host = host},
          {.driver = "usb-storage", .uas_alt = false});
}

/// AMD A75 desktop (Hudson-D3 FCH): xHCI 00:10.0 (usb1 480M + usb2 5G, two connectors) with HyperX sticks
/// sda and sdb; the FCH's second xHCI 00:10.1 (usb3 + usb4, two connectors) free; OHCI 00:12.0 (usb5) and
/// EHCI 00:12.2 (usb6), OHCI 00:13.0 (usb7) and EHCI 00:13.2 (usb8), four free ports each; an ASMedia
/// ASM1042 card (03:00.0, usb9 + usb10) behind the PCIe 2.0 x1 root port 00:15.0 with sdc and sdd.
tp::Topology a75() {
  using tp::HcdKind;
  using tp::UsbSpeed;
  Machine m;
  auto xhci_pair = [&](const std::string& ctrl, unsigned bus) {
    const auto hs = m.root_hub(ctrl, bus, UsbSpeed::High, 2);
    const auto ss = m.root_hub(ctrl, bus + 1, UsbSpeed::Super, 2);
    for (unsigned p = 1; p <= 2; ++p) m.peer(Machine::port_of(hs, p), Machine::port_of(ss, p));
    return ss;
  };
  const auto x0 =
      m.controller(std::nullopt, "0000:00:10.0", HcdKind::Xhci,
                   {0x1022, 0x7812, "Advanced Micro Devices, Inc. [AMD]", "FCH USB XHCI Controller"});
  const auto x0ss = xhci_pair(x0, 1);
  const auto x1 =
      m.controller(std::nullopt, "0000:00:10.1", HcdKind::Xhci,
                   {0x1022, 0x7812, "Advanced Micro Devices, Inc. [AMD]", "FCH USB XHCI Controller"});
  xhci_pair(x1, 3);
  unsigned bus = 5;
  for (const char* dev : {"12", "13"}) {
    const auto o =
        m.controller(std::nullopt, std::string("0000:00:") + dev + ".0", HcdKind::Ohci,
                     {0x1022, 0x7807, "Advanced Micro Devices, Inc. [AMD]", "FCH USB OHCI Controller"},
                     {std::string("0000:00:") + dev + ".2"});
    const auto e =
        m.controller(std::nullopt, std::string("0000:00:") + dev + ".2", HcdKind::Ehci,
                     {0x1022, 0x7808, "Advanced Micro Devices, Inc. [AMD]", "FCH USB EHCI Controller"},
                     {std::string("0000:00:") + dev + ".0"});
    m.root_hub(o, bus++, UsbSpeed::Full, 4);
    m.root_hub(e, bus++, UsbSpeed::High, 4);
  }
  const auto rp = m.pci_hop(std::nullopt, "0000:00:15.0",
                            {0x1022, 0x43a0, "Advanced Micro Devices, Inc. [AMD]",
                             "Hudson PCI to PCI bridge (PCIE port 0)", testing::pcie(5.0, 1)});
  const auto asm1042 = m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                                    {0x1b21, 0x1042, "ASMedia Technology Inc.",
                                     "ASM1042 SuperSpeed USB Host Controller", testing::pcie(5.0, 1)});
  const auto asmss = xhci_pair(asm1042, 9);
  hyperx(m, Machine::port_of(x0ss, 1), "sda", 6);
  hyperx(m, Machine::port_of(x0ss, 2), "sdb", 7);
  hyperx(m, Machine::port_of(asmss, 1), "sdc", 8);
  hyperx(m, Machine::port_of(asmss, 2), "sdd", 9);
  return m.finish();
}

std::string connector_id(const tp::Topology& t, const Placement& p) {
  return t.connectors()[p.connector].id;
}
std::string controller_bdf(const tp::Topology& t, const Placement& p) {
  return t[t.connectors()[p.connector].controller].as<tp::ControllerInfo>().bdf;
}

}  // namespace

TEST_CASE("a75: four HyperX sticks at 170 MB/s are already optimal, so nothing moves") {
  const auto t = a75();
  PlanRequest req;
  req.devices = {"sda", "sdb", "sdc", "sdd"};
  req.demand = Bandwidth::from_mbs(170);
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 4);
  REQUIRE(plan.current);
  // Now: 170 each (the ASM1042's x1 link carries 340 of its 400 MB/s); no placement does better.
  CHECK(plan.current->aggregate.mbs() == doctest::Approx(680.0));
  CHECK(plan.min.mbs() == doctest::Approx(170.0));
  CHECK(plan.total.mbs() == doctest::Approx(680.0));
  CHECK(plan.moves == 0);
  const char* where[] = {"usb1-port1", "usb1-port2", "usb9-port1", "usb9-port2"};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_FALSE(plan.placements[i].moved);
    CHECK(connector_id(t, plan.placements[i]) == where[i]);
  }
  CHECK(plan.already_optimal);
  // Headroom: the card's x1 link (400 MB/s) carries 340, so each of its two sticks could ask 30 MB/s more.
  REQUIRE(plan.headroom);
  CHECK(plan.headroom->resource == "pcie_link:0000:03:00.0");
  CHECK(plan.headroom->drives == 2);
  CHECK(plan.headroom->per_drive.mbs() == doctest::Approx(30.0));
}

TEST_CASE(
    "a75: the Avoid list names OHCI buses USB 1.1 full speed (12 Mb/s), EHCI buses USB 2.0 (480 Mb/s)") {
  const auto t = a75();
  PlanRequest req;
  req.devices = {"sda", "sdb", "sdc", "sdd"};
  req.demand = Bandwidth::from_mbs(170);
  const auto plan = make_plan(t, req);
  std::map<std::string, std::string> bus_reason;
  for (const auto& a : plan.avoid)
    if (a.kind == "shared_link") bus_reason[a.node] = a.reason;
  // usb5/usb7: the OHCI companions' buses; usb6/usb8: the EHCI buses.
  for (const char* ohci : {"usb5", "usb7"}) {
    REQUIRE(bus_reason.count(ohci) == 1);
    CHECK(bus_reason[ohci].find("USB 1.1 full-speed bus (12 Mb/s)") != std::string::npos);
    CHECK(bus_reason[ohci].find("USB 2.0") == std::string::npos);
    CHECK(bus_reason[ohci].find("480") == std::string::npos);
  }
  for (const char* ehci : {"usb6", "usb8"}) {
    REQUIRE(bus_reason.count(ehci) == 1);
    CHECK(bus_reason[ehci].find("USB 2.0 high-speed bus (480 Mb/s)") != std::string::npos);
    CHECK(bus_reason[ehci].find("12 Mb/s") == std::string::npos);
  }
}

TEST_CASE(
    "a75 at 210 MB/s: --prefer speed moves sdc to the FCH's second xHCI, --prefer few-moves keeps all four") {
  const auto t = a75();
  PlanRequest req;
  req.devices = {"sda", "sdb", "sdc", "sdd"};
  req.demand = Bandwidth::from_mbs(210);
  // Now: sda and sdb 210 each, sdc and sdd 200 each on the x1 link (400 MB/s): slowest 200, total 820.
  // Moving one stick off the card gives 210 each (slowest 210, total 840): 5% better, under few-moves' 10%.
  const auto speed = make_plan(t, req);
  REQUIRE(speed.placements.size() == 4);
  CHECK(speed.moves == 1);
  CHECK(speed.min.mbs() == doctest::Approx(210.0));
  CHECK(speed.total.mbs() == doctest::Approx(840.0));
  const char* speed_where[] = {"usb1-port1", "usb1-port2", "usb3-port1", "usb9-port2"};
  for (std::size_t i = 0; i < 4; ++i) CHECK(connector_id(t, speed.placements[i]) == speed_where[i]);
  CHECK(controller_bdf(t, speed.placements[2]) == "0000:00:10.1");
  CHECK_FALSE(speed.already_optimal);

  req.prefer = PlanPreference::FewMoves;
  const auto few = make_plan(t, req);
  REQUIRE(few.placements.size() == 4);
  CHECK(few.moves == 0);
  CHECK(few.min.mbs() == doctest::Approx(200.0));
  CHECK_FALSE(few.already_optimal);  // it settled for less than the best (5% short), which is not optimal
  CHECK_FALSE(few.headroom);         // sdc and sdd are short of their 210 MB/s
  const char* few_where[] = {"usb1-port1", "usb1-port2", "usb9-port1", "usb9-port2"};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(connector_id(t, few.placements[i]) == few_where[i]);
    CHECK_FALSE(few.placements[i].moved);
  }
}

TEST_CASE(
    "a75, two new 30 MB/s drives: --prefer speed spreads them over two controllers, --prefer uas keeps both "
    "on USB3") {
  const auto t = a75();
  PlanRequest req;
  req.new_drives = 2;
  req.demand = Bandwidth::from_mbs(30);
  // Every placement that avoids the OHCI ports meets 30 MB/s for both, so the tie-breakers decide: speed
  // spreads the drives over controllers (the 00:10.1 xHCI and the first EHCI), uas keeps both on SuperSpeed.
  const auto speed = make_plan(t, req);
  REQUIRE(speed.placements.size() == 2);
  CHECK(speed.min.mbs() == doctest::Approx(30.0));
  std::set<std::string> got;
  for (const auto& p : speed.placements) got.insert(connector_id(t, p));
  CHECK(got == std::set<std::string>{"usb3-port1", "usb6-port1"});

  req.prefer = PlanPreference::Uas;
  const auto uas = make_plan(t, req);
  REQUIRE(uas.placements.size() == 2);
  got.clear();
  for (const auto& p : uas.placements) {
    got.insert(connector_id(t, p));
    CHECK(p.protocol == tp::StorageProtocol::Uas);
    CHECK(controller_bdf(t, p) == "0000:00:10.1");
  }
  CHECK(got == std::set<std::string>{"usb3-port1", "usb3-port2"});
}

// ---- --demand values (src/analysis/plan/demands.hpp) ----------------------------------------------------

TEST_CASE("--demand: every bad value is a usage error with a message, good ones parse") {
  struct Row {
    std::vector<std::string> args;
    const char* error;  ///< a piece of the message; nullptr: parses
  };
  const Row rows[] = {
      {{"400M"}, nullptr},
      {{"sdb=170M", "/dev/sdc=1.2G", "300M"}, nullptr},
      {{"0.1M"}, nullptr},  // the smallest demand
      {{"100G"}, nullptr},  // the largest
      {{"drive 2=50M"}, nullptr},
      {{"=170M"}, "'=170M' names no drive"},
      {{"/dev/=170M"}, "names no drive"},
      {{"sdb="}, "bad --demand 'sdb='"},
      {{"0"}, "bad --demand '0'"},
      {{"-5M"}, "bad --demand '-5M'"},
      {{"fast"}, "bad --demand 'fast'"},
      {{"0.0000001"}, "'0.0000001' is out of range (0.1M to 100G per drive)"},
      {{"0.09M"}, "out of range"},
      {{"1e30"}, "'1e30' is out of range"},
      {{"101G"}, "out of range"},
      {{"sdb=170M", "sdb=200M"}, "'sdb=200M': sdb already has a demand ('sdb=170M')"},
      {{"sdb=170M", "/dev/sdb=170M"}, "sdb already has a demand"},
      {{"400M", "300M"}, "'300M': the common demand is already '400M'"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.args.front());
    const auto p = parse_demands(r.args);
    CAPTURE(p.error);
    if (!r.error) {
      CHECK(p.error.empty());
    } else {
      CHECK(p.error.find(r.error) != std::string::npos);
    }
  }
  const auto ok = parse_demands(std::vector<std::string>{"sdb=170M", "/dev/sdc=1.2G", "300M"});
  REQUIRE(ok.demands.common);
  CHECK(ok.demands.common->bytes_per_s == 300'000'000u);
  CHECK(ok.demands.per_drive.at("sdb").bytes_per_s == 170'000'000u);
  CHECK(ok.demands.per_drive.at("sdc").bytes_per_s == 1'200'000'000u);
}

TEST_CASE("--demand DEV=RATE must name a drive of the question") {
  const auto d = parse_demands(std::vector<std::string>{"sdb=170M"}).demands;
  CHECK_FALSE(unknown_demand(d, demand_names(std::vector<std::string>{"/dev/sdb", "sdc"}, 0)));
  const auto e = unknown_demand(d, demand_names(std::vector<std::string>{"sda", "sdc"}, 0));
  REQUIRE(e);
  CHECK(*e == "--demand for sdb: sdb is not one of the drives asked about (sda, sdc)");
  // New drives are "drive 1".."drive N".
  CHECK(demand_names({}, 2) == std::vector<std::string>{"drive 1", "drive 2"});
  CHECK(unknown_demand(d, demand_names({}, 2)));
  CHECK_FALSE(
      unknown_demand(parse_demands(std::vector<std::string>{"drive 2=5M"}).demands, demand_names({}, 2)));
  CHECK(*unknown_demand(d, {}) == "--demand for sdb: there is no drive to plan or predict");
  CHECK_FALSE(unknown_demand(parse_demands(std::vector<std::string>{"400M"}).demands, {}));
}

// ---- the one drive rule (src/analysis/common/usb_drives.hpp) in plan and --predict
// --------------------------

TEST_CASE(
    "plan and --predict take only USB drives with a medium: an empty card reader and a SATA disk are left "
    "out") {
  Machine m;
  m.system_disk({.name = "sda", .size_bytes = 500 * testing::kGB, .vendor = "ATA", .model = "SATA SSD"},
                "sata");
  const auto x =
      m.controller(std::nullopt, "0000:00:14.0", tp::HcdKind::Xhci,
                   {0x8086, 0xa36d, "Intel Corporation", "Cannon Lake PCH USB 3.1 xHCI Host Controller"});
  const auto hs = m.root_hub(x, 1, tp::UsbSpeed::High, 2);
  m.root_hub(x, 2, tp::UsbSpeed::Super, 2);
  m.drive(Machine::port_of(hs, 1),
          {.vid = 0x0bda,
           .pid = 0x0158,
           .manufacturer = "Generic",
           .product = "USB2.0-CRW",
           .speed = tp::UsbSpeed::High,
           .bcd_usb = 0x200},
          {.name = "sdb", .size_bytes = 0, .host = 6},  // no card in the slot
          {.driver = "usb-storage", .uas_alt = false});
  hyperx(m, Machine::port_of(hs, 2), "sdc", 7);
  const auto t = m.finish();

  PlanRequest req;
  req.devices = {"sdb", "sdc"};
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 1);
  CHECK(plan.placements[0].drive == "sdc");
  REQUIRE(plan.diagnostics.size() == 1);
  CHECK(plan.diagnostics[0].where == "sdb");
  CHECK(plan.diagnostics[0].severity == tp::Severity::Warning);
  CHECK(plan.diagnostics[0].message == "no medium (an empty card-reader slot); left out");

  const auto named = current_problem(t, {"/dev/sda", "sdb", "sdc"}, {});
  REQUIRE(named.drives.size() == 1);
  CHECK(named.drives[0].dev == "sdc");
  REQUIRE(named.diagnostics.size() == 2);
  CHECK(named.diagnostics[0].where == "sda");
  CHECK(named.diagnostics[0].message == "not a USB drive of the scanned topology; left out");
  CHECK(named.diagnostics[1].where == "sdb");
  CHECK(named.diagnostics[1].message == "no medium (an empty card-reader slot); left out");

  const auto all = current_problem(t, {}, {});
  REQUIRE(all.drives.size() == 1);
  CHECK(all.drives[0].dev == "sdc");
}

TEST_CASE("the drives of a plan question: each named once, each a USB drive of the scan") {
  using V = std::vector<std::string>;
  CHECK_FALSE(repeated_device(V{"sdb", "sdc"}));
  CHECK_FALSE(repeated_device(V{}));
  CHECK(repeated_device(V{"sdb", "sdb"}) == "sdb is named twice: name each drive to plan once");
  CHECK(repeated_device(V{"sdb", "sdc", "/dev/sdb"}) == "sdb is named twice: name each drive to plan once");
  const V usb{"sdb", "sdc"};
  CHECK_FALSE(unknown_device(V{"/dev/sdb", "sdc"}, usb));
  CHECK(unknown_device(V{"sdb", "sdz"}, usb) == "sdz is not a USB drive here (the USB drives: sdb, sdc)");
  CHECK(unknown_device(V{"sda"}, V{}) == "sda is not a USB drive here: there is no USB drive");
}

TEST_CASE(
    "USB4 dock: when its USB3 tunnel is the bottleneck, the plan moves drives to the computer's own ports") {
  const auto t = testing::usb4_dock_hub();
  PlanRequest req;
  req.devices = {"sda", "sdb"};
  SUBCASE(
      "the tunnel's 8 Gb/s (1000 MB/s, its 10G adapter's payload) ties with the dock hub's uplink: the hub") {
    const auto plan = make_plan(t, req);
    REQUIRE(plan.current);
    REQUIRE(plan.current->drives.at(0).bottleneck);
    CHECK(plan.current->drives.at(0).bottleneck->kind == topology::ResourceKind::HubUplink);
  }
  SUBCASE(
      "DisplayPort tunnels leave the USB3 tunnel 300 MB/s: it limits both, and the drives leave the dock") {
    topology::CapacityModel m = topology::nominal_model();
    m.overrides_mbs["usb4_tunnel:0-1"] = 300;
    const auto plan = make_plan(t, req, m);
    REQUIRE(plan.current);
    for (const auto& d : plan.current->drives) {
      REQUIRE(d.bottleneck);
      CHECK(d.bottleneck->kind == topology::ResourceKind::Usb4Tunnel);
      CHECK(d.bottleneck->label == "USB3 tunnel of the USB4 link 0-1 (Example Dock)");
      CHECK(d.predicted.mbs() == doctest::Approx(150.0));
    }
    CHECK(plan.moves >= 1);
    for (const auto& p : plan.placements)
      if (p.moved) CHECK_FALSE(topology::usb4_link_of_port(t, p.port));
    CHECK(plan.min.mbs() > 150.0);
    // The tunnel, not the faster dock hub uplink over the same connectors, is the link to avoid; and it is
    // named even for one free connector, since it cannot carry one drive's demand.
    const AvoidNote* tunnel = nullptr;
    for (const auto& a : plan.avoid) {
      CHECK(a.node != "2-1");
      if (a.kind == "shared_link" && a.node == "0-1") tunnel = &a;
    }
    REQUIRE(tunnel);
    CHECK(tunnel->reason.find(
              "USB3 tunnel of the USB4 link 0-1 (Example Dock): one tunnel for all ports behind "
              "the dock, 300 MB/s in total; less than one drive's") == 0);
  }
}

TEST_CASE("Thunderbolt 3 dock: a narrow PCIe tunnel is avoided in the words of a tunnel, not of a hub") {
  // One 10 Gb/s lane: 9 Gb/s usable x 0.80 = 900 MB/s for the tunnel, below the dock xHCI's PCIe 3.0 x4.
  const auto t = testing::tb3_dock({.xhci = {8.0, 4, 8.0, 4}, .lane_gbps = 10, .lanes = 1});
  PlanRequest req;
  req.devices = {"sda", "sdb"};
  req.demand = Bandwidth::from_mbs(600);
  const auto plan = make_plan(t, req);
  const AvoidNote* tunnel = nullptr;
  for (const auto& a : plan.avoid)
    if (a.kind == "shared_link" && a.node == "0-1") tunnel = &a;
  REQUIRE(tunnel);
  CHECK(tunnel->reason ==
        "PCIe tunnel of the Thunderbolt 3 link 0-1 (Example Dock): one tunnel for all ports "
        "behind the "
        "dock, 900 MB/s in total; two drives there share it");
}
