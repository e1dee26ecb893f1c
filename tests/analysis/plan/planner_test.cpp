// The planner over in-memory machines (tests/support/machines.hpp): rate parsing, slots, the search's
// choices and its determinism. The scanned-fixture cases live in plan_fixture_test.cpp.
#include <doctest/doctest.h>

#include <set>

#include "src/analysis/plan/planner.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using namespace usbsat::analysis::model;
using namespace usbsat::analysis::plan;

TEST_CASE("preferences round-trip") {
  for (auto p : {PlanPreference::Speed, PlanPreference::Uas, PlanPreference::FewMoves})
    CHECK(parse_preference(to_string(p)) == p);
  CHECK_FALSE(parse_preference("fastest"));
}

TEST_CASE("asm1042 card alone: both drives stay and share the x1 link, nothing free for a third") {
  const auto t = testing::asm1042_card();
  PlanRequest req;
  req.devices = {"sda", "/dev/sdb"};
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

TEST_CASE("--prefer few-moves keeps drives in place when moving gains less than 10%") {
  const auto t = testing::legacy_ehci();
  PlanRequest req;
  req.devices = {"sdb"};
  req.prefer = PlanPreference::FewMoves;
  const auto plan = make_plan(t, req);
  REQUIRE(plan.placements.size() == 1);
  CHECK_FALSE(plan.placements[0].moved);
}

TEST_CASE("workstation: the free SuperSpeed ports are behind the hub, and two drives there share its uplink") {
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
