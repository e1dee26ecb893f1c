#include <doctest/doctest.h>

#include <algorithm>

#include "src/analysis/model/grouping.hpp"
#include "src/analysis/saturate/attribution.hpp"
#include "src/analysis/saturate/group_input.hpp"
#include "src/analysis/saturate/verdict_text.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat::analysis::model;
using namespace usbsat::analysis::saturate;
using namespace usbsat::testing;
using usbsat::topology::Bandwidth;
using usbsat::topology::ResourceKind;

namespace {

/// Rates of one phase: {dev, {run1, run2, ...}}.
PhaseMeasurement phase(unsigned n, std::vector<DriveRates> drives) {
  return {n, std::move(drives)};
}

/// A scenario from a topology: the group shared_node_groups() finds for these drives, assembled by
/// topology_group_input() the way `usbsat saturate` will.
GroupInput from_topology(const Topology& t, const std::vector<std::string>& devs,
                         std::vector<PhaseMeasurement> phases,
                         const usbsat::topology::CapacityModel& m = usbsat::topology::nominal_model()) {
  std::vector<Vertex> vs;
  for (const auto& d : devs) vs.push_back(block(t, d));
  const auto groups = shared_node_groups(t, vs, m);
  REQUIRE(!groups.empty());
  REQUIRE(groups.front().drives == devs);  // the scenarios have exactly one group with all drives
  return topology_group_input(t, groups.front(), std::move(phases), m);
}

}  // namespace

TEST_CASE("ASM1042: two BOT drives saturate the card's PCIe 2.0 x1 link at ~392 MB/s") {
  const Topology t = asm1042_card(StorageProtocol::Bot);
  const auto in =
      from_topology(t, {"sda", "sdb"},
                    {phase(1, {{"sda", {310}}, {"sdb", {310}}}), phase(2, {{"sda", {197}}, {"sdb", {195}}})});
  const auto v = attribute(in);
  CHECK(v.name == "0000:03:00.0");
  CHECK(v.tolerance == doctest::Approx(0.07));  // no repeats: the default tolerance
  CHECK(v.confidence == Confidence::Low);       // no repeats
  REQUIRE(v.phases.size() == 2);
  CHECK(v.phases[0].aggregate_mbs == doctest::Approx(620));
  CHECK(*v.phases[0].efficiency == doctest::Approx(1.0));
  CHECK(v.phases[1].aggregate_mbs == doctest::Approx(392));
  CHECK(*v.phases[1].efficiency == doctest::Approx(392.0 / 620));
  CHECK(*v.phases[1].predicted_aggregate_mbs == doctest::Approx(400));
  CHECK(v.phases[1].verdict == Verdict::Saturated);
  CHECK(v.verdict == Verdict::Saturated);
  CHECK(*v.plateau_mbs == doctest::Approx(392));
  REQUIRE(v.bottleneck);
  CHECK(v.bottleneck->node == "0000:03:00.0");
  CHECK(v.bottleneck->kind == ResourceKind::PcieLink);
  CHECK(*v.bottleneck->capacity_mbs == doctest::Approx(400));
  CHECK_FALSE(v.bottleneck->lowest_common_ancestor);
  CHECK(v.notes.empty());
  CHECK(
      conclusion(v) ==
      "sda (port 1) and sdb (port 2) share the PCIe 5 GT/s x1 link of 0000:03:00.0 (ASMedia Technology Inc. "
      "ASM1042 SuperSpeed USB Host Controller): together 392 MB/s "
      "of 2×310 MB/s solo (63%) — move one to a port of another controller, such as a chipset port.");
}

TEST_CASE("four USB 2.0 sticks behind a USB 2.0 hub on EHCI: plateau ~40 MB/s, hub uplink named") {
  const Topology t = legacy_ehci();
  const auto in = from_topology(t, {"sdb", "sdc", "sdd", "sde"},
                                {phase(1, {{"sdb", {38}}, {"sdc", {36}}, {"sdd", {37}}, {"sde", {35}}}),
                                 phase(2, {{"sdb", {20}}, {"sdc", {19}}}),
                                 phase(4, {{"sdb", {10}}, {"sdc", {10}}, {"sdd", {10}}, {"sde", {9.5}}})});
  const auto v = attribute(in);
  CHECK(v.name == "5-1");
  CHECK(v.phases[1].verdict == Verdict::Saturated);
  CHECK(v.phases[2].verdict == Verdict::Saturated);
  CHECK(v.deciding_phase == 2u);  // the largest phase showing contention
  CHECK(*v.plateau_mbs == doctest::Approx(39.5));
  CHECK(*v.phases[2].predicted_aggregate_mbs == doctest::Approx(40));
  REQUIRE(v.bottleneck);
  CHECK(v.bottleneck->node == "5-1");  // hub uplink and EHCI bus both 40: the nearer one
  CHECK(v.bottleneck->kind == ResourceKind::HubUplink);
  CHECK(
      conclusion(v) ==
      "sdb (port 1 of hub 5-1), sdc (port 2 of hub 5-1), sdd (port 3 of hub 5-1) and sde (port 4 of hub 5-1) "
      "share the USB 2.0 uplink of hub 5-1 (USB2.0 Hub): together 40 MB/s of 38+36+37+35 MB/s solo (27%) — "
      "connect one directly to the computer instead of through hub 5-1.");
}

TEST_CASE("two sticks on the root ports of one EHCI: the bus is named, with bus advice") {
  const Topology t = four_sticks_on_root_ports(HcdKind::Ehci);
  const auto v = attribute(
      from_topology(t, {"sdb", "sdc"},
                    {phase(1, {{"sdb", {36}}, {"sdc", {35}}}), phase(2, {{"sdb", {19}}, {"sdc", {19}}})}));
  CHECK(v.verdict == Verdict::Saturated);
  CHECK(v.bottleneck->kind == ResourceKind::UsbBus);
  CHECK(conclusion(v) ==
        "sdb (port 1) and sdc (port 2) share the USB 2.0 bus usb1 (ehci, shared by all its ports): together "
        "38 MB/s "
        "of 2×36 MB/s solo (54%) — move one to another USB bus, such as a USB 3 port.");
}

TEST_CASE(
    "USB4 dock: the plateau is named as the USB3 tunnel of the USB4 link, with a host port as the advice") {
  // The tunnel at 300 MB/s, as DisplayPort tunnels on the link would leave it for writes (the nominal 8 Gb/s
  // tunnel ties with the dock hub's 10 Gb/s uplink, which is named, being nearer).
  usbsat::topology::CapacityModel m = usbsat::topology::nominal_model();
  m.overrides_mbs["usb4_tunnel:0-1"] = 300;
  const Topology t = usb4_dock_hub();
  const auto in = from_topology(
      t, {"sda", "sdb"},
      {phase(1, {{"sda", {280}}, {"sdb", {280}}}), phase(2, {{"sda", {150}}, {"sdb", {148}}})}, m);
  const auto v = attribute(in);
  CHECK(v.verdict == Verdict::Saturated);
  REQUIRE(v.bottleneck);
  CHECK(v.bottleneck->kind == ResourceKind::Usb4Tunnel);
  CHECK(v.bottleneck->node == "0-1");
  CHECK(*v.bottleneck->capacity_mbs == doctest::Approx(300));
  CHECK(conclusion(v) ==
        "sda (port 1 of hub 2-1) and sdb (port 2 of hub 2-1) share the USB3 tunnel of the USB4 link 0-1 "
        "(Example "
        "Dock): together 298 MB/s of 2×280 MB/s solo (53%) — move one to a port of the computer itself, not "
        "one "
        "of the dock's.");
}

TEST_CASE("UAS SSD and a Gen 1 stick behind one USB3 hub: the hub's 400 MB/s uplink") {
  const Topology t = usb3_hub_ssd_and_stick(true);
  const auto in =
      from_topology(t, {"sdb", "sdc"},
                    {phase(1, {{"sdb", {380}}, {"sdc", {120}}}), phase(2, {{"sdb", {275}}, {"sdc", {118}}})});
  const auto v = attribute(in);
  CHECK(v.verdict == Verdict::Saturated);
  CHECK(v.bottleneck->node == "2-1");
  CHECK(v.bottleneck->kind == ResourceKind::HubUplink);
  CHECK(*v.phases[1].predicted_aggregate_mbs == doctest::Approx(400));
  // Per-drive shares: the slow stick keeps its 120, the SSD gets the rest of the uplink.
  CHECK(*v.phases[1].drives[0].predicted_mbs == doctest::Approx(280));
  CHECK(*v.phases[1].drives[1].predicted_mbs == doctest::Approx(120));
  CHECK(*v.phases[1].drives[1].solo_mbs == doctest::Approx(120));
  CHECK(v.phases[1].drives[1].mbs == doctest::Approx(118));
}

TEST_CASE("a slow stick next to a fast SSD is no false alarm: judged against the sum of solo rates") {
  const Topology t = usb3_hub_ssd_and_stick(false);
  // Very unequal shares (378 vs 34), yet nothing was lost: both run as fast as alone.
  const auto in =
      from_topology(t, {"sdb", "sdc"},
                    {phase(1, {{"sdb", {380}}, {"sdc", {35}}}), phase(2, {{"sdb", {378}}, {"sdc", {34}}})});
  const auto v = attribute(in);
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(*v.phases[1].efficiency == doctest::Approx(412.0 / 415));
  CHECK_FALSE(v.bottleneck);
  CHECK_FALSE(v.plateau_mbs);
  CHECK(v.notes.empty());
  CHECK(
      conclusion(v) ==
      "sdb (port 1 of hub 2-1) and sdc (port 2 of hub 1-1) do not slow each other down: together 412 MB/s of "
      "380+35 MB/s solo (99%) — this placement is fine.");
}

TEST_CASE("attribution: drives on separate controllers of a PCIe switch card, no contention") {
  const Topology t = pcie_switch_card(2);
  const auto v = attribute(from_topology(
      t, {"sdb", "sdc"},
      {phase(1, {{"sdb", {390}}, {"sdc", {385}}}), phase(2, {{"sdb", {388}}, {"sdc", {384}}})}));
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(*v.phases[1].predicted_aggregate_mbs == doctest::Approx(775));
}

TEST_CASE("four 170 MB/s drives on separate controllers: no contention at n=2 and n=4") {
  const Topology t = pcie_switch_card(4);
  const auto v =
      attribute(from_topology(t, {"sdb", "sdc", "sdd", "sde"},
                              {phase(1, {{"sdb", {170}}, {"sdc", {170}}, {"sdd", {170}}, {"sde", {170}}}),
                               phase(2, {{"sdb", {170}}, {"sdc", {169}}}),
                               phase(4, {{"sdb", {169}}, {"sdc", {170}}, {"sdd", {168}}, {"sde", {170}}})}));
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(v.deciding_phase == 2u);
  CHECK(*v.phases[2].predicted_aggregate_mbs == doctest::Approx(680));
  CHECK(*v.phases[2].efficiency == doctest::Approx(677.0 / 680));
}

TEST_CASE("contention far above the model is unexplained and located at the lowest common ancestor") {
  const Topology t = pcie_switch_card(2);
  const auto v = attribute(from_topology(
      t, {"sdb", "sdc"},
      {phase(1, {{"sdb", {390}}, {"sdc", {390}}}), phase(2, {{"sdb", {150}}, {"sdc", {150}}})}));
  CHECK(v.verdict == Verdict::Unexplained);
  CHECK(*v.plateau_mbs == doctest::Approx(300));
  REQUIRE(v.bottleneck);
  CHECK(v.bottleneck->lowest_common_ancestor);
  CHECK(v.bottleneck->label == "PCIe port 0000:01:00.0 (PEX 8608 upstream)");
  CHECK_FALSE(v.bottleneck->kind);
  REQUIRE(v.notes.size() == 1);
  CHECK(v.notes[0] ==
        "the model predicts 780 MB/s together, measured 300 MB/s: a shared resource the model does "
        "not know limits these drives");
  CHECK(
      conclusion(v) ==
      "sdb (port 1) and sdc (port 1) slow each other down more than the model explains: together 300 MB/s of "
      "2×390 MB/s solo (38%), the model predicts 780 MB/s. A shared resource the model does not know "
      "(controller firmware, power, a transaction translator) sits at or above PCIe port 0000:01:00.0 (PEX "
      "8608 "
      "upstream) — move one "
      "outside it and measure again.");
}

TEST_CASE(
    "contention the model predicts, with no link of matching capacity, names the lowest common ancestor") {
  GroupInput in;
  in.name = "g";
  in.drives = {{"sdx", ""}, {"sdy", ""}};
  in.common_ancestor = "controller 0000:05:00.0";
  in.candidates = {{.id = "pcie_link:0000:05:00.0",
                    .kind = ResourceKind::PcieLink,
                    .node = "0000:05:00.0",
                    .capacity = Bandwidth::from_mbs(800),
                    .label = "PCIe 2.0 x2 link"}};
  in.phases = {phase(1, {{"sdx", {200}}, {"sdy", {200}}}), phase(2, {{"sdx", {148}}, {"sdy", {148}}})};
  Prediction p;
  p.aggregate = Bandwidth::from_mbs(300);  // e.g. two per-drive limits the measurement confirms
  in.predictions = {{2, p}};
  const auto v = attribute(in);
  CHECK(v.verdict == Verdict::Saturated);
  REQUIRE(v.bottleneck);
  CHECK(v.bottleneck->lowest_common_ancestor);
  CHECK(conclusion(v) ==
        "sdx and sdy saturate at 296 MB/s: together 296 MB/s of 2×200 MB/s solo (74%); no modelled link has "
        "that "
        "capacity, so the limit is at or above their lowest common ancestor, controller 0000:05:00.0 — move "
        "one "
        "to a port outside controller 0000:05:00.0.");
}

TEST_CASE("--group without topology: a declared capacity is matched, without one the plateau is measured") {
  const std::vector<PhaseMeasurement> phases{phase(1, {{"sdx", {95}}, {"sdy", {90}}}),
                                             phase(2, {{"sdx", {50}}, {"sdy", {48}}})};
  const auto capped =
      attribute(declared_group_input("backup", {"/dev/sdx", "/dev/sdy"}, Bandwidth::from_mbs(100), phases));
  CHECK(capped.name == "backup");
  CHECK(capped.verdict == Verdict::Saturated);
  CHECK(capped.bottleneck->kind == ResourceKind::Declared);
  CHECK(*capped.phases[1].predicted_aggregate_mbs == doctest::Approx(100));
  CHECK(conclusion(capped) ==
        "sdx and sdy share the declared shared link of group backup: together 98 MB/s of 95+90 MB/s solo "
        "(53%) — "
        "run them one after the other, or move one off backup.");
  // No capacity declared: the user still said they share something, and together they deliver what the
  // best of them does alone (98 >= 95 - 7%): a plain shared ceiling, measured (rule 14).
  const auto open = attribute(declared_group_input("backup", {"/dev/sdx", "/dev/sdy"}, std::nullopt, phases));
  CHECK(open.verdict == Verdict::Saturated);
  CHECK(*open.phases[1].predicted_aggregate_mbs == doctest::Approx(185));
  REQUIRE(open.bottleneck);
  CHECK(open.bottleneck->kind == ResourceKind::Declared);
  CHECK(open.bottleneck->node == "backup");
  CHECK(open.bottleneck->capacity_measured);
  CHECK(*open.bottleneck->capacity_mbs == doctest::Approx(98));
  CHECK(*open.plateau_mbs == doctest::Approx(98));
  CHECK(conclusion(open) ==
        "sdx and sdy share group backup, which carries 98 MB/s at most (measured; no capacity was declared): "
        "together 98 MB/s of 95+90 MB/s solo (53%) — run them one after the other, or move one off backup.");
  // Without contention a declared group is simply fine.
  const auto fine = attribute(declared_group_input(
      "backup", {"sdx", "sdy"}, Bandwidth::from_mbs(400),
      {phase(1, {{"sdx", {95}}, {"sdy", {90}}}), phase(2, {{"sdx", {94}}, {"sdy", {90}}})}));
  CHECK(fine.verdict == Verdict::NoContention);
}

TEST_CASE("rule 14: a --group without capacity on four drives at 40 alone, 40 for 2, 40 for 4 is saturated") {
  const std::vector<std::string> devs{"/dev/l0", "/dev/l1", "/dev/l2", "/dev/l3"};
  const auto plateau =
      attribute(declared_group_input("bus", devs, std::nullopt,
                                     {phase(1, {{"l0", {40}}, {"l1", {40}}, {"l2", {40}}, {"l3", {40}}}),
                                      phase(2, {{"l0", {20}}, {"l1", {20}}}),
                                      phase(4, {{"l0", {10}}, {"l1", {10}}, {"l2", {10}}, {"l3", {10}}})}));
  CHECK(plateau.verdict == Verdict::Saturated);
  CHECK(plateau.phases[1].verdict == Verdict::Saturated);
  CHECK(plateau.phases[2].verdict == Verdict::Saturated);
  REQUIRE(plateau.bottleneck);
  CHECK(plateau.bottleneck->kind == ResourceKind::Declared);
  CHECK(plateau.bottleneck->capacity_measured);
  CHECK(*plateau.bottleneck->capacity_mbs == doctest::Approx(40));
  CHECK_FALSE(plateau.bottleneck->lowest_common_ancestor);

  // Together less than the best drive alone: more than a shared ceiling (they thrash) -> unexplained.
  const auto collapse = attribute(
      declared_group_input("bus", {"/dev/l0", "/dev/l1"}, std::nullopt,
                           {phase(1, {{"l0", {40}}, {"l1", {40}}}), phase(2, {{"l0", {12}}, {"l1", {12}}})}));
  CHECK(collapse.verdict == Verdict::Unexplained);
  CHECK(collapse.bottleneck->lowest_common_ancestor);

  // The aggregate keeps falling as drives are added (60 with 2, 42 with 4): no single plateau.
  const auto falling =
      attribute(declared_group_input("bus", devs, std::nullopt,
                                     {phase(1, {{"l0", {40}}, {"l1", {40}}, {"l2", {40}}, {"l3", {40}}}),
                                      phase(2, {{"l0", {30}}, {"l1", {30}}}),
                                      phase(4, {{"l0", {11}}, {"l1", {11}}, {"l2", {10}}, {"l3", {10}}})}));
  CHECK(falling.verdict == Verdict::Unexplained);
  CHECK(falling.phases[1].verdict == Verdict::Unexplained);

  // A declared capacity that is wrong stays as it was: the declaration is the model, not measured.
  const auto wrong = attribute(
      declared_group_input("bus", {"/dev/l0", "/dev/l1"}, Bandwidth::from_mbs(400),
                           {phase(1, {{"l0", {40}}, {"l1", {40}}}), phase(2, {{"l0", {20}}, {"l1", {20}}})}));
  CHECK(wrong.verdict == Verdict::Unexplained);

  // Topology groups are not declared: contention no modelled link explains stays unexplained.
  auto in =
      declared_group_input("bus", {"/dev/l0", "/dev/l1"}, std::nullopt,
                           {phase(1, {{"l0", {40}}, {"l1", {40}}}), phase(2, {{"l0", {20}}, {"l1", {20}}})});
  in.declared_group = false;
  CHECK(attribute(in).verdict == Verdict::Unexplained);
}

TEST_CASE("tolerance comes from the noise of repeats, 7% without repeats") {
  CHECK(derive_tolerance({phase(1, {{"a", {100}}}), phase(2, {{"a", {50}}, {"b", {50}}})}) ==
        doctest::Approx(0.07));
  // Tight repeats: the floor of 3%.
  CHECK(derive_tolerance({phase(1, {{"a", {100, 100.5, 99.5}}})}) == doctest::Approx(0.03));
  // Aggregates 90, 100, 110: cv = 10/100 -> 3 x cv = 30% -> clamped to 25%.
  CHECK(derive_tolerance({phase(2, {{"a", {45, 50, 55}}, {"b", {45, 50, 55}}})}) == doctest::Approx(0.25));
  // Solo cv 2%: tolerance 6%.
  CHECK(derive_tolerance({phase(1, {{"a", {98, 100, 102}}})}) == doctest::Approx(0.06));
}

TEST_CASE("tolerance from settled phases: 2 x the largest in-window spread, 7% or more when one did not") {
  auto drive = [](std::string dev, double mbs, bool settled, double spread) {
    return DriveRates{std::move(dev), {mbs}, {RunSettle{settled, 2.0, spread}}};
  };
  struct Row {
    std::string what;
    std::vector<PhaseMeasurement> phases;
    double tolerance;
  };
  const std::vector<Row> rows = {
      {"settled and flat: the floor of 3%",
       {phase(1, {drive("a", 100, true, 0.004), drive("b", 100, true, 0.003)}),
        phase(2, {drive("a", 50, true, 0.006), drive("b", 50, true, 0.005)})},
       0.03},
      {"settled with ±2%: 4%",
       {phase(1, {drive("a", 100, true, 0.02)}),
        phase(2, {drive("a", 50, true, 0.01), drive("b", 50, true, 0.01)})},
       0.04},
      {"one phase did not settle: no less than the default",
       {phase(1, {drive("a", 100, true, 0.004)}),
        phase(2, {drive("a", 50, false, 0.012), drive("b", 50, true, 0.01)})},
       0.07},
      {"did not settle, far off: 2 x its spread",
       {phase(1, {drive("a", 100, true, 0.004)}),
        phase(2, {drive("a", 50, false, 0.05), drive("b", 50, true, 0.01)})},
       0.10},
      {"a phase without settle figures (fixed length): the default",
       {phase(1, {drive("a", 100, true, 0.004)}), phase(2, {{"a", {50}}, {"b", {50}}})},
       0.07},
  };
  for (const auto& r : rows) {
    CAPTURE(r.what);
    CHECK(derive_tolerance(r.phases) == doctest::Approx(r.tolerance));
  }
}

TEST_CASE("confidence from one run of settled phases: medium, twice: high, not settled: low") {
  auto judge = [](unsigned runs, bool settled) {
    auto rates = [&](std::string dev, double mbs) {
      DriveRates d{std::move(dev), {}, {}};
      for (unsigned r = 0; r < runs; ++r) {
        d.mbs.push_back(mbs);
        d.settle.push_back({settled, 2.0, 0.004});
      }
      return d;
    };
    GroupInput in = declared_group_input(
        "g", {"a", "b"}, Bandwidth::from_mbs(100),
        {phase(1, {rates("a", 100), rates("b", 100)}), phase(2, {rates("a", 50), rates("b", 50)})});
    return attribute(in);
  };
  const auto once = judge(1, true);
  CHECK(once.verdict == Verdict::Saturated);
  CHECK(once.tolerance == doctest::Approx(0.03));
  CHECK(once.confidence == Confidence::Medium);
  CHECK(once.phases[1].settled == true);
  CHECK(once.phases[1].settled_after_s == doctest::Approx(2.0));
  CHECK(once.phases[1].window_spread == doctest::Approx(0.004));
  CHECK(judge(2, true).confidence == Confidence::High);
  const auto unsettled = judge(1, false);
  CHECK(unsettled.confidence == Confidence::Low);
  CHECK(unsettled.tolerance == doctest::Approx(0.07));
  CHECK(unsettled.phases[1].settled == false);
  CHECK_FALSE(unsettled.phases[1].settled_after_s.has_value());
  CHECK(std::count_if(unsettled.notes.begin(), unsettled.notes.end(), [](const std::string& n) {
          return n.find("did not settle in 2.0 s") != std::string::npos;
        }) == 2);  // alone, and 2 at once
  // Fixed-length phases: no settle figures at all.
  const auto fixed = attribute(
      declared_group_input("g", {"a", "b"}, Bandwidth::from_mbs(100),
                           {phase(1, {{"a", {100}}, {"b", {100}}}), phase(2, {{"a", {50}}, {"b", {50}}})}));
  CHECK_FALSE(fixed.phases[1].settled.has_value());
  CHECK(fixed.confidence == Confidence::Low);
}

TEST_CASE("the default tolerance: 6% below the solo sum is noise, 8% is contention") {
  // Single runs (no repeats): the 7% default decides. 2 x 100 MB/s alone; together 188 (-6%) or 184 (-8%).
  auto judge = [](double each) {
    return attribute(declared_group_input(
        "g", {"sdx", "sdy"}, std::nullopt,
        {phase(1, {{"sdx", {100}}, {"sdy", {100}}}), phase(2, {{"sdx", {each}}, {"sdy", {each}}})}));
  };
  const auto six = judge(94);
  CHECK(six.tolerance == doctest::Approx(0.07));
  CHECK(*six.phases[1].efficiency == doctest::Approx(0.94));
  CHECK(six.verdict == Verdict::NoContention);
  const auto eight = judge(92);
  CHECK(*eight.phases[1].efficiency == doctest::Approx(0.92));
  // Contention. No capacity declared, and together they still deliver more than one alone: the group's
  // measured plateau (rule 14), not unexplained.
  CHECK(eight.verdict == Verdict::Saturated);
  CHECK(eight.bottleneck->capacity_measured);
}

TEST_CASE("the same 10% loss is contention with tight repeats and noise with loose ones") {
  GroupInput in;
  in.name = "g";
  in.drives = {{"a", ""}, {"b", ""}};
  in.common_ancestor = "hub 2-1";
  in.candidates = {{.id = "hub_uplink:2-1",
                    .kind = ResourceKind::HubUplink,
                    .node = "2-1",
                    .capacity = Bandwidth::from_mbs(180),
                    .label = "uplink"}};
  in.phases = {phase(1, {{"a", {100, 100.5, 99.5}}, {"b", {100, 100.4, 99.6}}}),
               phase(2, {{"a", {90, 90.2, 89.8}}, {"b", {90, 89.9, 90.1}}})};
  auto tight = attribute(in);
  CHECK(tight.tolerance == doctest::Approx(0.03));
  CHECK(tight.verdict == Verdict::Saturated);
  CHECK(tight.bottleneck->node == "2-1");
  CHECK(tight.confidence == Confidence::High);
  CHECK(tight.phases[1].repeats == 3);
  CHECK(tight.phases[1].spread == doctest::Approx(0.2 / 180).epsilon(0.01));

  in.phases = {phase(1, {{"a", {90, 100, 110}}, {"b", {100, 100, 100}}}),
               phase(2, {{"a", {90, 90, 90}}, {"b", {90, 90, 90}}})};
  auto loose = attribute(in);
  CHECK(loose.tolerance == doctest::Approx(0.25));
  CHECK(loose.verdict == Verdict::NoContention);
  CHECK(loose.confidence == Confidence::Medium);
}

TEST_CASE("a drive without a solo baseline leaves its phase unjudged, with a note") {
  GroupInput in;
  in.name = "g";
  in.drives = {{"a", ""}, {"b", ""}};
  in.common_ancestor = "x";
  in.phases = {phase(1, {{"a", {100}}}), phase(2, {{"a", {50}}, {"b", {50}}})};
  const auto v = attribute(in);
  CHECK_FALSE(v.phases[1].verdict);
  CHECK_FALSE(v.phases[1].efficiency);
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(v.notes == std::vector<std::string>{"phase n=2: a drive has no solo baseline, not judged",
                                            "no concurrent phase could be judged"});
  CHECK(conclusion(v) == "a and b: no concurrent measurement could be judged.");
}

TEST_CASE("a model that predicts contention that did not happen is reported for calibration") {
  const Topology t = asm1042_card();
  // Measured 600 together through a link modelled at 400: the card does better than the nominal figure.
  const auto v = attribute(from_topology(
      t, {"sda", "sdb"},
      {phase(1, {{"sda", {310}}, {"sdb", {310}}}), phase(2, {{"sda", {300}}, {"sdb", {300}}})}));
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(v.notes ==
        std::vector<std::string>{"the model predicts contention (400 MB/s together) but none was measured "
                                 "(600 MB/s): a modelled capacity is too low and could be calibrated"});
}

TEST_CASE("attribution is deterministic") {
  auto run = [] {
    const Topology t = legacy_ehci();
    const auto v = attribute(from_topology(
        t, {"sdb", "sdc", "sdd", "sde"},
        {phase(1, {{"sdb", {38, 37}}, {"sdc", {36, 36}}, {"sdd", {37, 38}}, {"sde", {35, 35}}}),
         phase(4, {{"sdb", {10, 10}}, {"sdc", {10, 9.8}}, {"sdd", {10, 10}}, {"sde", {9.5, 9.7}}})}));
    return conclusion(v) + "|" + std::string(to_string(v.verdict)) + "|" + std::to_string(v.tolerance) + "|" +
           std::string(to_string(v.confidence));
  };
  // Pinned: two runs give this exact text (tolerance from the repeats, noise 3 x cv of the solo runs).
  const std::string expected =
      "sdb (port 1 of hub 5-1), sdc (port 2 of hub 5-1), sdd (port 3 of hub 5-1) and sde (port 4 of hub 5-1) "
      "share the USB 2.0 uplink of hub 5-1 (USB2.0 Hub): together 40 MB/s of 38+36+38+35 MB/s solo (27%) — "
      "connect one directly to the computer instead of through hub 5-1.|saturated|0.056569|medium";
  CHECK(run() == expected);  // tolerance 3 x cv(38, 37) = 3 x 0.7071 / 37.5
  CHECK(run() == expected);
}

TEST_CASE("drives that together exceed the sum of their solo rates: a note, low confidence, verdict kept") {
  // 2 x 40 MB/s alone, 200 MB/s together: impossible for honest numbers (e.g. a declared capacity echoed
  // instead of measured, or a disturbed solo run). Efficiency 2.5 > 1 + tol.
  const auto v =
      attribute(declared_group_input("g", {"sdx", "sdy"}, Bandwidth::from_mbs(400),
                                     {phase(1, {{"sdx", {40, 40, 40}}, {"sdy", {40, 40, 40}}}),
                                      phase(2, {{"sdx", {100, 100, 100}}, {"sdy", {100, 100, 100}}})}));
  CHECK(*v.phases[1].efficiency == doctest::Approx(2.5));
  CHECK(v.verdict == Verdict::NoContention);
  CHECK(v.confidence == Confidence::Low);  // High without the inconsistency (3 tight repeats)
  CHECK(v.notes ==
        std::vector<std::string>{"phase n=2: together 200 MB/s, more than the sum of the solo rates "
                                 "(80 MB/s): the measurements are inconsistent, measure again"});
  // Within the tolerance above 1 (noise): no note, confidence as the repeats give it.
  const auto ok = attribute(declared_group_input("g", {"sdx", "sdy"}, Bandwidth::from_mbs(400),
                                                 {phase(1, {{"sdx", {40, 40, 40}}, {"sdy", {40, 40, 40}}}),
                                                  phase(2, {{"sdx", {41, 41, 41}}, {"sdy", {41, 41, 41}}})}));
  CHECK(ok.notes.empty());
  CHECK(ok.confidence == Confidence::High);
}
