// The watch verdict as a pure function (old topology, new topology, event) -> verdict, on the named machines.
#include <doctest/doctest.h>

#include <algorithm>

#include "report/watch_report.hpp"
#include "src/analysis/plan/planner.hpp"
#include "src/analysis/watch/verdict.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using analysis::watch::verdict;

namespace {

bool has_finding(const report::WatchEvent& e, std::string_view id) {
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
  REQUIRE(v->notes.size() == 1);
  CHECK(v->notes[0].find("connector usb1-port4 is") != std::string::npos);
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
  const auto text = report::render_watch_text(*v);
  CHECK(text.rfind("+ sde", 0) == 0);
  CHECK(text.find("move it to " + v->move->description) != std::string::npos);
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
  // On the card's Bulk-Only twin the protocol says why.
  const auto bot = testing::asm1042_card(topology::StorageProtocol::Bot);
  const auto b = verdict(bot, bot, {"add", "sdb"});
  REQUIRE(b);
  CHECK(b->protocol == "bot");
  CHECK_FALSE(report::protocol_reason(*b).empty());
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
  CHECK(report::render_watch_text(*r).rfind("- sdb", 0) == 0);
  CHECK_FALSE(verdict(t, t, {"add", "sda"}));         // SATA: not a USB drive
  CHECK_FALSE(verdict(t, t, {"add", "loop0"}));       // not in the scan at all
  CHECK_FALSE(verdict(t, t, {"change", "sdb"}));      // not a plug event
  CHECK_FALSE(verdict(empty, t, {"remove", "sdb"}));  // removal of a drive the old scan did not have
}

TEST_CASE("watch JSON: one line per event, the verdict's fields") {
  const auto t = testing::workstation();
  const auto v = verdict(t, t, {"add", "sde"});
  REQUIRE(v);
  const auto line = report::render_watch_json(*v);
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  CHECK(line.back() == '\n');
  CHECK(line.find("\"action\":\"add\"") != std::string::npos);
  CHECK(line.find("\"dev\":\"sde\"") != std::string::npos);
}

TEST_CASE("watch: text and JSON goldens of an add and a remove on the workstation") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto add = verdict(empty, t, {"add", "sde"});
  const auto remove = verdict(t, empty, {"remove", "sde"});
  REQUIRE(add);
  REQUIRE(remove);
  testing::check_golden("watch_workstation.txt",
                        report::render_watch_text(*add) + report::render_watch_text(*remove));
  testing::check_golden("watch_workstation.jsonl",
                        report::render_watch_json(*add) + report::render_watch_json(*remove));
}
