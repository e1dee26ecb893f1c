// The watch verdict as a pure function (old topology, new topology, event) -> verdict, on the named machines.
#include <doctest/doctest.h>

#include <algorithm>

#include "src/analysis/plan/planner.hpp"
#include "src/analysis/watch/verdict.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using analysis::watch::verdict;

namespace {

bool has_finding(const analysis::watch::Verdict& e, std::string_view id) {
  return std::any_of(e.findings.begin(), e.findings.end(), [&](const auto& f) { return f.id == id; });
}

}  // namespace

TEST_CASE("watch verdict: a USB3 stick in a USB2-only port: side, speed, why, finding, a better connector") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto v = verdict(empty, t, {"add", "sde"});
  REQUIRE(v);
  CHECK(v->action == "add");
  CHECK(v->dev == "sde");
  CHECK(v->devnode == "/dev/sde");
  REQUIRE(v->connector);
  CHECK(v->connector->id == "usb1-port4");
  CHECK(v->side == "USB2");
  CHECK(v->speed == topology::UsbSpeed::High);
  CHECK(v->capable == topology::UsbSpeed::Super);
  CHECK(v->protocol == "bot");
  REQUIRE(v->running);  // the drive as it runs: its notes (report/watch_report.cpp) come from it
  CHECK(v->running->dev == "sde");
  CHECK(has_finding(*v, "speed_below_capability"));
  // The planner's own choice for this one drive, with its prediction before and after.
  analysis::plan::PlanRequest req;
  req.devices = {"sde"};
  const auto plan = analysis::plan::make_plan(t, req);
  REQUIRE(plan.placements.size() == 1);
  REQUIRE(plan.placements[0].moved);
  REQUIRE(v->move);
  CHECK(v->move->connector.index == plan.placements[0].connector);
  CHECK(v->move->then_mbs > v->move->now_mbs);
  CHECK(v->move->then_mbs == doctest::Approx(plan.placements[0].prediction.predicted.mbs()));
}

TEST_CASE("watch verdict: two drives on one add-in card share its controller and PCIe link") {
  const auto t = testing::asm1042_card();
  const auto v = verdict(t, t, {"add", "sdb"});
  REQUIRE(v);
  CHECK(v->side == "USB3");
  CHECK(v->protocol == "uas");
  REQUIRE(!v->sharing.empty());
  const auto& s = v->sharing.back();
  CHECK(s.drives == std::vector<std::string>{"sda"});
  CHECK(s.node == "0000:03:00.0");
  CHECK(s.label.find("0000:03:00.0") != std::string::npos);
  CHECK(s.kind == topology::NodeKind::Controller);
  // On the card's Bulk-Only twin (why it runs Bulk-Only: tests/cli/watch_render_test.cpp).
  const auto bot = testing::asm1042_card(topology::StorageProtocol::Bot);
  const auto b = verdict(bot, bot, {"add", "sdb"});
  REQUIRE(b);
  CHECK(b->protocol == "bot");
}

TEST_CASE("watch verdict: removal names where the drive was, other events and other disks give none") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto r = verdict(t, empty, {"remove", "sdb"});
  REQUIRE(r);
  CHECK(r->action == "remove");
  REQUIRE(r->connector);
  CHECK(r->connector->id == "usb1-port2");
  CHECK(r->findings.empty());
  CHECK_FALSE(r->running);                            // a removed drive does not run
  CHECK_FALSE(verdict(t, t, {"add", "sda"}));         // SATA: not a USB drive
  CHECK_FALSE(verdict(t, t, {"add", "loop0"}));       // not in the scan at all
  CHECK_FALSE(verdict(t, t, {"change", "sdb"}));      // not a plug event
  CHECK_FALSE(verdict(empty, t, {"remove", "sdb"}));  // removal of a drive the old scan did not have
}

TEST_CASE(
    "watch verdict: a drive on a hub chained behind a dock names the tunnel it landed on and its path") {
  const auto t = testing::usb4_hub_chain();
  const auto hub = verdict(t, t, {"add", "sdb"});
  REQUIRE(hub);
  REQUIRE(hub->tunnel);
  CHECK(hub->tunnel->router == "0-301");
  CHECK(hub->tunnel->path == std::vector<std::string>{"0-1", "0-301"});
  CHECK(hub->tunnel->label.find("via 0-1") != std::string::npos);
  CHECK(hub->tunnel->text.find("USB3 tunnel of the USB4 link 0-301") == 0);
  REQUIRE(hub->tunnel->usb3_tunnel_gbps);
  CHECK(*hub->tunnel->usb3_tunnel_gbps == doctest::Approx(8));
  const auto dock = verdict(t, t, {"add", "sda"});
  REQUIRE(dock);
  REQUIRE(dock->tunnel);
  CHECK(dock->tunnel->router == "0-1");
  CHECK(dock->tunnel->path == std::vector<std::string>{"0-1"});
  // A machine without a thunderbolt bus: no tunnel.
  const auto plain = verdict(testing::asm1042_card(), testing::asm1042_card(), {"add", "sdb"});
  REQUIRE(plain);
  CHECK_FALSE(plain->tunnel);
}
