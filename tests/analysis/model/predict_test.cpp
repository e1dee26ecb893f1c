#include <doctest/doctest.h>

#include <cstdint>

#include "src/analysis/model/grouping.hpp"
#include "src/analysis/model/predict.hpp"
#include "tests/support/machines.hpp"
#include "topology/words/describe.hpp"

using namespace usbsat::analysis::model;
using namespace usbsat::testing;
using usbsat::topology::Bandwidth;
using usbsat::topology::ResourceKind;

namespace {
std::vector<DemandSpec> specs(std::initializer_list<std::string> devs) {
  std::vector<DemandSpec> out;
  for (const auto& d : devs) out.push_back({d, std::nullopt});
  return out;
}
std::vector<DemandSpec> measured(std::initializer_list<std::pair<std::string, double>> devs) {
  std::vector<DemandSpec> out;
  for (const auto& [d, mbs] : devs)
    out.push_back({d, Bandwidth::from_mbs(mbs), usbsat::topology::Basis{DemandSource::Measured}});
  return out;
}
const DrivePrediction& drive(const Prediction& p, const std::string& dev) {
  for (const auto& d : p.drives)
    if (d.dev == dev) return d;
  throw std::logic_error("no prediction for " + dev);
}
std::string bottleneck_of(const Prediction& p, const std::string& dev) {
  const auto& b = drive(p, dev).bottleneck;
  return b ? b->resource : "none";
}
/// Fair shares never exceed the max-flow bound (1 B/s of rounding per drive allowed).
void check_bound(const FlowProblem& fp, const Prediction& pr, const MaxFlowBound& mf) {
  CHECK(pr.aggregate.bytes_per_s <= mf.max_flow.bytes_per_s + fp.drives.size());
}
}  // namespace

TEST_CASE("ASM1042: two UAS drives share the card's PCIe 2.0 x1 link, ~400 MB/s together") {
  const Topology t = asm1042_card();
  const auto fp = make_problem(t, specs({"sda", "/dev/sdb"}));
  CHECK(fp.diagnostics.empty());
  REQUIRE(fp.drives.size() == 2);
  CHECK(fp.drives[0].demand.mbs() == doctest::Approx(400));  // default demand: its own link ceiling
  CHECK(fp.drives[0].basis.kind == DemandSource::LinkCeiling);
  CHECK(fp.resources.size() == 5);  // two drive links + controller + two PCIe hops, each once

  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(400));
  for (const char* dev : {"sda", "sdb"}) {
    CAPTURE(dev);
    CHECK(drive(pr, dev).predicted.mbs() == doctest::Approx(200));
    REQUIRE(drive(pr, dev).bottleneck);
    const auto& b = *drive(pr, dev).bottleneck;
    CHECK(b.node == "0000:03:00.0");  // both hops are 400: the nearer one is named
    CHECK(b.kind == ResourceKind::PcieLink);
    CHECK(b.capacity.mbs() == doctest::Approx(400));
  }
  const auto mf = max_flow_bound(fp);
  CHECK(mf.max_flow.mbs() == doctest::Approx(400));
  CHECK(mf.min_cut == std::vector<std::string>{"pcie_link:0000:03:00.0"});
  check_bound(fp, pr, mf);

  // One drive alone is limited by its own link (which ties with the x1 link: the nearest is named).
  const auto solo = predict_fair_share(make_problem(t, specs({"sda"})));
  CHECK(solo.aggregate.mbs() == doctest::Approx(400));
  CHECK(bottleneck_of(solo, "sda") == "drive_link:4-1");
}

TEST_CASE("ASM1042 with BOT drives at their measured 310 MB/s: x1 link caps them at 2x200") {
  const Topology t = asm1042_card(StorageProtocol::Bot);
  const auto fp = make_problem(t, measured({{"sda", 310.0}, {"sdb", 305.0}}));
  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(400));
  CHECK(drive(pr, "sda").predicted.mbs() == doctest::Approx(200));
  CHECK(drive(pr, "sda").basis.kind == DemandSource::Measured);
  CHECK(bottleneck_of(pr, "sdb") == "pcie_link:0000:03:00.0");
  check_bound(fp, pr, max_flow_bound(fp));
}

TEST_CASE("four USB 2.0 sticks behind one USB 2.0 hub on EHCI: ~40 MB/s total, the hub uplink is named") {
  const Topology t = legacy_ehci();
  const auto fp = make_problem(t, specs({"sdb", "sdc", "sdd", "sde"}));
  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(40));
  for (const auto& d : pr.drives) {
    CAPTURE(d.dev);
    CHECK(d.predicted.mbs() == doctest::Approx(10));
    // Hub uplink and EHCI bus are both 40 MB/s and both full: the narrowest-then-nearest rule names the hub.
    CHECK(bottleneck_of(pr, d.dev) == "hub_uplink:5-1");
  }
  bool bus_saturated = false;
  for (const auto& r : pr.resources)
    if (r.resource == "usb_bus:usb5") bus_saturated = r.saturated && r.drives == 4;
  CHECK(bus_saturated);
  const auto mf = max_flow_bound(fp);
  CHECK(mf.max_flow.mbs() == doctest::Approx(40));
  CHECK(mf.min_cut == std::vector<std::string>{"hub_uplink:5-1"});
}

TEST_CASE("four USB 2.0 sticks on the root ports of one EHCI share its bus, on an xHCI they do not") {
  const Topology ehci = four_sticks_on_root_ports(HcdKind::Ehci);
  const auto fp = make_problem(ehci, specs({"sdb", "sdc", "sdd", "sde"}));
  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(40));
  for (const auto& d : pr.drives) CHECK(bottleneck_of(pr, d.dev) == "usb_bus:usb1");
  CHECK(max_flow_bound(fp).min_cut == std::vector<std::string>{"usb_bus:usb1"});
  const auto gs = shared_node_groups(ehci, std::vector<Vertex>{block(ehci, "sdb"), block(ehci, "sdc")});
  REQUIRE(gs.size() == 1);
  CHECK(gs[0].name == "usb1");
  CHECK(gs[0].kind == NodeKind::RootHub);

  const Topology xhci = four_sticks_on_root_ports(HcdKind::Xhci);
  const auto px = predict_fair_share(make_problem(xhci, specs({"sdb", "sdc", "sdd", "sde"})));
  CHECK(px.aggregate.mbs() == doctest::Approx(160));
  CHECK(bottleneck_of(px, "sdd") == "drive_link:1-3");
  // Only the controller is shared (no usb_bus resource, no root-hub group).
  const auto gx = shared_node_groups(xhci, std::vector<Vertex>{block(xhci, "sdb"), block(xhci, "sdc")});
  REQUIRE(gx.size() == 1);
  CHECK(gx[0].name == "0000:00:14.0");
}

TEST_CASE("UAS SSD and a stick behind one USB3 hub") {
  SUBCASE("USB 2.0 stick on the hub's USB2 half: no shared link, both get their ceiling") {
    const Topology t = usb3_hub_ssd_and_stick(false);
    const auto fp = make_problem(t, specs({"sdb", "sdc"}));
    const auto pr = predict_fair_share(fp);
    CHECK(drive(pr, "sdb").predicted.mbs() == doctest::Approx(400));
    CHECK(drive(pr, "sdc").predicted.mbs() == doctest::Approx(40));
    CHECK(bottleneck_of(pr, "sdb") == "drive_link:2-1.1");
    CHECK(bottleneck_of(pr, "sdc") == "drive_link:1-1.2");
    const auto mf = max_flow_bound(fp);
    CHECK(mf.max_flow.mbs() == doctest::Approx(440));
    CHECK(pr.aggregate == mf.max_flow);
  }
  SUBCASE("Gen 1 stick on the USB3 half: the 400 MB/s uplink is shared") {
    const Topology t = usb3_hub_ssd_and_stick(true);
    auto pr = predict_fair_share(make_problem(t, specs({"sdb", "sdc"})));
    CHECK(drive(pr, "sdb").predicted.mbs() == doctest::Approx(200));
    CHECK(drive(pr, "sdc").predicted.mbs() == doctest::Approx(200));
    CHECK(bottleneck_of(pr, "sdc") == "hub_uplink:2-1");
    // With measured demands the slow stick keeps its 120 and the SSD gets the rest of the uplink.
    const auto fp = make_problem(t, measured({{"sdb", 380.0}, {"sdc", 120.0}}));
    pr = predict_fair_share(fp);
    CHECK(drive(pr, "sdc").predicted.mbs() == doctest::Approx(120));
    CHECK_FALSE(drive(pr, "sdc").bottleneck);
    CHECK(drive(pr, "sdb").predicted.mbs() == doctest::Approx(280));
    CHECK(bottleneck_of(pr, "sdb") == "hub_uplink:2-1");
    const auto mf = max_flow_bound(fp);
    CHECK(mf.max_flow.mbs() == doctest::Approx(400));
    CHECK(pr.aggregate == mf.max_flow);
  }
}

TEST_CASE("drives on separate controllers of a PCIe switch card: no contention") {
  const Topology t = pcie_switch_card(2);
  const auto fp = make_problem(t, specs({"sdb", "sdc"}));
  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(800));
  CHECK(bottleneck_of(pr, "sdb") == "drive_link:4-1");
  CHECK(bottleneck_of(pr, "sdc") == "drive_link:6-1");
  const auto mf = max_flow_bound(fp);
  CHECK(mf.max_flow == pr.aggregate);
  // The default demand *is* the link ceiling, so the demand edges and the drive links are equal cuts; the cut
  // nearest the source (the demands) is reported.
  CHECK(mf.min_cut == std::vector<std::string>{"demand:sdb", "demand:sdc"});
}

TEST_CASE("four 170 MB/s drives on separate controllers: each gets 170, limited by nothing shared") {
  const Topology t = pcie_switch_card(4);
  const auto fp = make_problem(t, measured({{"sdb", 170.0}, {"sdc", 170.0}, {"sdd", 170.0}, {"sde", 170.0}}));
  const auto pr = predict_fair_share(fp);
  for (const auto& d : pr.drives) {
    CAPTURE(d.dev);
    CHECK(d.predicted.mbs() == doctest::Approx(170));
    CHECK_FALSE(d.bottleneck);
  }
  const auto mf = max_flow_bound(fp);
  CHECK(mf.max_flow.mbs() == doctest::Approx(680));
  CHECK(mf.min_cut == std::vector<std::string>{"demand:sdb", "demand:sdc", "demand:sdd", "demand:sde"});
}

TEST_CASE("max flow is an upper bound: strictly above the fair share when paths are not a tree") {
  // A crosses R1 and R2, B only R1, C only R2. Fair: 50 each (150). The flow network lets A's flow leave
  // after R1 (B's exit), so the bound is 200: max flow over-approximates non-tree sharing, never under.
  FlowProblem fp;
  for (const char* id : {"R1", "R2"})
    fp.resources.push_back(
        {.id = id, .kind = ResourceKind::Declared, .node = id, .capacity = Bandwidth::from_mbs(100)});
  fp.drives = {{"a", Bandwidth::from_mbs(1000), usbsat::topology::Basis{DemandSource::Given}, {0, 1}},
               {"b", Bandwidth::from_mbs(1000), usbsat::topology::Basis{DemandSource::Given}, {0}},
               {"c", Bandwidth::from_mbs(1000), usbsat::topology::Basis{DemandSource::Given}, {1}}};
  const auto pr = predict_fair_share(fp);
  CHECK(pr.aggregate.mbs() == doctest::Approx(150));
  const auto mf = max_flow_bound(fp);
  CHECK(mf.max_flow.mbs() == doctest::Approx(200));
  CHECK(pr.aggregate < mf.max_flow);
}

TEST_CASE("fair share never exceeds max flow and equals it on trees (deterministic pseudo-random demands)") {
  std::uint64_t state = 42;
  auto next = [&] {  // LCG (Knuth MMIX): reproducible on every platform
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 33) / static_cast<double>(1ULL << 31);
  };
  const Topology topos[] = {asm1042_card(), legacy_ehci(), usb3_hub_ssd_and_stick(true), pcie_switch_card(4)};
  const std::vector<std::string> devs[] = {
      {"sda", "sdb"}, {"sdb", "sdc", "sdd", "sde"}, {"sdb", "sdc"}, {"sdb", "sdc", "sdd", "sde"}};
  for (std::size_t k = 0; k < 4; ++k)
    for (int round = 0; round < 25; ++round) {
      std::vector<DemandSpec> s;
      for (const auto& d : devs[k]) s.push_back({d, Bandwidth::from_mbs(5 + 600 * next())});
      const auto fp = make_problem(topos[k], s);
      const auto pr = predict_fair_share(fp);
      const auto mf = max_flow_bound(fp);
      CAPTURE(k);
      CAPTURE(round);
      check_bound(fp, pr, mf);
      // On a tree towards one root, progressive filling is a maximum flow.
      CHECK(pr.aggregate.mbs() == doctest::Approx(mf.max_flow.mbs()).epsilon(1e-6));
      for (const auto& d : pr.drives) CHECK(d.predicted <= d.demand);
    }
}

TEST_CASE("unknown drives and drives without a known ceiling are left out with a diagnostic") {
  const Topology t = asm1042_card();
  const auto fp = make_problem(t, specs({"sdz", "sda", "usb4"}));
  CHECK(fp.drives.size() == 1);
  REQUIRE(fp.diagnostics.size() == 2);
  CHECK(fp.diagnostics[0].where == "sdz");
  CHECK(fp.diagnostics[1].where == "usb4");
}

TEST_CASE("declared groups: one shared resource of the declared capacity, or nothing") {
  const std::vector<DemandSpec> s{
      {"/dev/sdx", Bandwidth::from_mbs(95), usbsat::topology::Basis{DemandSource::Measured}},
      {"/dev/sdy", Bandwidth::from_mbs(90), usbsat::topology::Basis{DemandSource::Measured}},
      {"/dev/sdw", std::nullopt}};
  const auto capped = declared_problem("backup", s, Bandwidth::from_mbs(100));
  CHECK(capped.diagnostics.size() == 1);
  const auto pr = predict_fair_share(capped);
  CHECK(pr.aggregate.mbs() == doctest::Approx(100));
  CHECK(bottleneck_of(pr, "sdx") == "declared:backup");
  CHECK(drive(pr, "sdy").predicted.mbs() == doctest::Approx(50));

  const auto open = predict_fair_share(declared_problem("backup", s, std::nullopt));
  CHECK(open.aggregate.mbs() == doctest::Approx(185));
  CHECK(bottleneck_of(open, "sdx") == "none");
}

TEST_CASE("prediction is deterministic: same topology, same problem, same answer") {
  auto run = [] {
    const Topology t = legacy_ehci();
    const auto pr = predict_fair_share(make_problem(t, specs({"sde", "sdc", "sdb", "sdd"})));
    std::string out;
    for (const auto& d : pr.drives)
      out += d.dev + "=" + std::to_string(d.predicted.bytes_per_s) + "@" + bottleneck_of(pr, d.dev) + ";";
    return out;
  };
  const auto a = run();
  CHECK(a == run());
  CHECK(a ==
        "sde=10000000@hub_uplink:5-1;sdc=10000000@hub_uplink:5-1;sdb=10000000@hub_uplink:5-1;"
        "sdd=10000000@hub_uplink:5-1;");
}

// ---- grouping -------------------------------------------------------------------------------------------

namespace {
std::vector<Vertex> blocks(const Topology& t, std::initializer_list<std::string> names) {
  std::vector<Vertex> out;
  for (const auto& n : names) out.push_back(block(t, n));
  return out;
}
std::vector<std::string> resource_ids(const std::vector<usbsat::topology::Resource>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.id);
  return out;
}
}  // namespace

TEST_CASE("shared_node_groups: nodes with the same drives collapse into the one nearest to the drives") {
  SUBCASE("ASM1042: the controller (its PCIe link and the root port above see the same two drives)") {
    const Topology t = asm1042_card();
    const auto gs = shared_node_groups(t, blocks(t, {"sda", "sdb"}));
    REQUIRE(gs.size() == 1);
    CHECK(gs[0].name == "0000:03:00.0");
    CHECK(gs[0].kind == NodeKind::Controller);
    CHECK(gs[0].drives == std::vector<std::string>{"sda", "sdb"});
    CHECK(gs[0].same_drives_as == std::vector<std::string>{"0000:00:1c.4"});
    CHECK(resource_ids(gs[0].shared) == std::vector<std::string>{"controller:0000:03:00.0",
                                                                 "pcie_link:0000:03:00.0",
                                                                 "pcie_link:0000:00:1c.4"});
  }
  SUBCASE("EHCI: the hub, with the bus and the controller as the same experiment") {
    const Topology t = legacy_ehci();
    const auto gs = shared_node_groups(t, blocks(t, {"sdb", "sdc", "sdd", "sde"}));
    REQUIRE(gs.size() == 1);
    CHECK(gs[0].name == "5-1");
    CHECK(gs[0].kind == NodeKind::Hub);
    CHECK(gs[0].same_drives_as == std::vector<std::string>{"usb5", "0000:00:1d.7"});
    CHECK(resource_ids(gs[0].shared) ==
          std::vector<std::string>{"hub_uplink:5-1", "usb_bus:usb5", "controller:0000:00:1d.7"});
  }
  SUBCASE("switch card: only the upstream part of the PCIe chain is shared") {
    const Topology t = pcie_switch_card(2);
    const auto gs = shared_node_groups(t, blocks(t, {"sdb", "sdc"}));
    REQUIRE(gs.size() == 1);
    CHECK(gs[0].name == "0000:01:00.0");
    CHECK(gs[0].kind == NodeKind::PciHop);
    CHECK(resource_ids(gs[0].shared) ==
          std::vector<std::string>{"pcie_link:0000:01:00.0", "pcie_link:0000:00:01.0"});
  }
  SUBCASE("USB3 hub: stick on the USB2 half shares only the controller; on the USB3 half, the hub") {
    const Topology a = usb3_hub_ssd_and_stick(false);
    auto gs = shared_node_groups(a, blocks(a, {"sdb", "sdc"}));
    REQUIRE(gs.size() == 1);
    CHECK(gs[0].name == "0000:00:14.0");
    const Topology b = usb3_hub_ssd_and_stick(true);
    gs = shared_node_groups(b, blocks(b, {"sdb", "sdc"}));
    REQUIRE(gs.size() == 1);
    CHECK(gs[0].name == "2-1");
  }
}

TEST_CASE("shared_node_groups: nested groups with different drives are all listed, parents first") {
  Machine m;
  const auto c = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
  const auto ss = m.root_hub(c, 2, UsbSpeed::Super, 3);
  const auto hub = m.hub(Machine::port_of(ss, 1), {.speed = UsbSpeed::Super}, 2);
  m.drive(Machine::port_of(hub, 1), {.speed = UsbSpeed::Super}, {.name = "sdb"});
  m.drive(Machine::port_of(hub, 2), {.speed = UsbSpeed::Super}, {.name = "sdc"});
  m.drive(Machine::port_of(ss, 2), {.speed = UsbSpeed::Super}, {.name = "sdd"});
  m.drive(Machine::port_of(ss, 3), {.speed = UsbSpeed::Super}, {.name = "sde"});
  const Topology t = m.finish();
  const auto gs = shared_node_groups(t, blocks(t, {"sdb", "sdc", "sdd"}));
  REQUIRE(gs.size() == 2);
  CHECK(gs[0].name == "0000:00:14.0");
  CHECK(gs[0].drives == std::vector<std::string>{"sdb", "sdc", "sdd"});
  CHECK(gs[1].name == "2-1");
  CHECK(gs[1].drives == std::vector<std::string>{"sdb", "sdc"});
  // A single drive below a node is no group; an empty selection gives none.
  CHECK(shared_node_groups(t, blocks(t, {"sde"})).empty());
  CHECK(shared_node_groups(t, {}).empty());

  const auto lca = lowest_common_ancestor(t, blocks(t, {"sdb", "sdc"}));
  REQUIRE(lca);
  CHECK(node_id(t, *lca) == "2-1");
  CHECK(node_id(t, *lowest_common_ancestor(t, blocks(t, {"sdb", "sdd"}))) == "usb2");
  CHECK(node_id(t, *lowest_common_ancestor(t, blocks(t, {"sdb"}))) == "sdb");
  CHECK(usbsat::topology::describe_node(t, *lca) == "hub 2-1");
  CHECK(usbsat::topology::describe_node(t, t.controllers()[0]) == "xHCI controller 0000:00:14.0");
}

TEST_CASE("USB4 dock with displays: writes meet the DisplayPort streams in the USB3 tunnel, reads do not") {
  const auto t = usbsat::testing::usb4_dock_displays();
  std::vector<DemandSpec> one{{"sda", std::nullopt, usbsat::topology::Basis{DemandSource::LinkCeiling}}};
  // Reads: the SSD's own 10 Gb/s link (1000 MB/s) and the tunnel's adapter payload (1000 MB/s) tie; the drive
  // gets its whole link.
  const auto read = predict_fair_share(make_problem(t, one));
  CHECK(read.drives.at(0).predicted.mbs() == doctest::Approx(1000));
  // Writes: (36 - 33.2775 Gb/s) x 0.8 = 2.178 Gb/s = 272.25 MB/s, the tunnel named.
  usbsat::topology::CapacityModel m = usbsat::topology::nominal_model();
  m.direction = usbsat::topology::Direction::Write;
  const auto write = predict_fair_share(make_problem(t, one, m));
  CHECK(write.drives.at(0).predicted.mbs() == doctest::Approx(272.25));
  REQUIRE(write.drives.at(0).bottleneck);
  CHECK(write.drives.at(0).bottleneck->kind == usbsat::topology::ResourceKind::Usb4Tunnel);
}
