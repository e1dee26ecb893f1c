// Golden tests of the `usbsat plan` renderers over hand-built inputs (connectors from the in-memory ASM1042
// machine, so the connector and controller records are real summaries).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/plan_report.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using report::PlanBottleneck;

namespace {

report::PredictInput predict_input() {
  report::PredictInput in;
  const PlanBottleneck x1{
      "0000:03:00.0", "pcie_link", 400.0,
      "PCIe 2.0 x1 link of 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host "
      "Controller)"};
  in.drives.push_back({"sda", "port 1", 400.0, "link_ceiling", "its USB 3.2 Gen 1 UAS link's ceiling",
                       "link ceiling", 200.0, x1});
  in.drives.push_back({"sdb", "port 2", 170.0, "given", "given (--demand)", "given", 170.0, std::nullopt});
  in.aggregate_mbs = 370.0;
  in.max_flow_mbs = 370.0;
  in.min_cut = {"demand:sdb", "pcie_link:0000:03:00.0"};
  in.diagnostics.push_back(
      {topology::Severity::Warning, "sdz", "not a block device of the scanned topology; left out"});
  return in;
}

report::PlanInput plan_input() {
  const auto t = testing::asm1042_card();
  report::PlanInput in;
  in.replace = true;
  in.prefer = "speed";
  in.demand_mbs = 400.0;
  for (std::size_t i = 0; i < 2; ++i) {
    report::PlanRow r;
    r.drive = i == 0 ? "sda" : "sdb";
    r.connector = topology::summarize_connector(t, i);
    r.port = *r.connector.usb3_port;
    r.speed = "USB3 5G";
    r.superspeed = true;
    r.controller = topology::summarize_controller(t, t.controllers().front());
    r.from = r.connector;
    r.moved = false;
    r.rate = "USB 3.2 Gen 1";
    r.protocol = "uas";
    r.demand_mbs = 400.0;
    r.demand_source = "given";
    r.demand_basis = "given (--demand)";
    r.basis = "given";
    r.predicted_mbs = 200.0;
    r.bottleneck = predict_input().drives[0].bottleneck;
    in.rows.push_back(std::move(r));
  }
  in.min_mbs = 200.0;
  in.total_mbs = 400.0;
  in.moves = 0;
  in.current = predict_input();
  in.avoid.push_back(
      {"shared_link",
       "0000:03:00.0",
       400.0,
       {"usb3-port1", "usb3-port2"},
       "PCIe 2.0 x1 link of 0000:03:00.0: one PCIe link for all ports of the controller, 400 MB/s in "
       "total; two drives there share it"});
  in.avoid.push_back({"usb2_only",
                      "",
                      40.0,
                      {"a", "b", "c", "d", "e", "f", "g"},
                      "no USB3 wiring: a SuperSpeed drive there runs at 480 Mb/s, at most about 40 MB/s"});
  in.method = "exhaustive";
  in.classes = 1;
  in.evaluated = 1;
  in.usable_connectors = 2;
  return in;
}

}  // namespace

TEST_CASE("plan --predict: text and JSON goldens") {
  testing::check_golden("plan_predict.txt", report::render_predict_text(predict_input()));
  const auto json = report::render_predict_json(predict_input());
  testing::check_golden("plan_predict.json", json);
  const auto j = nlohmann::json::parse(json);
  CHECK(j["drives"][0]["bottleneck"]["capacity_mbs"] == 400.0);
  CHECK(j["drives"][1]["bottleneck"].is_null());
}

TEST_CASE("plan: text and JSON goldens") {
  testing::check_golden("plan_replace.txt", report::render_plan_text(plan_input()));
  const auto json = report::render_plan_json(plan_input());
  testing::check_golden("plan_replace.json", json);
  const auto j = nlohmann::json::parse(json);
  CHECK(j["mode"] == "replace");
  CHECK(j["placements"].size() == 2);
  CHECK(j["placements"][0]["controller"]["pci"] == "0000:03:00.0");
  CHECK(j["avoid"][1]["connectors"].size() == 7);
}

TEST_CASE("plan: an empty plan says so, and renderers are deterministic") {
  report::PlanInput in;
  in.method = "exhaustive";
  const auto text = report::render_plan_text(in);
  CHECK(text.find("no placement") != std::string::npos);
  CHECK(report::render_plan_json(plan_input()) == report::render_plan_json(plan_input()));
  CHECK(report::render_plan_text(plan_input()) == report::render_plan_text(plan_input()));
}

TEST_CASE("plan and --predict on a narrow terminal: the controller / limit columns give way") {
  auto in = plan_input();
  const std::string wide = report::render_plan_text(in);
  in.style.width = 100;
  const std::string narrow = report::render_plan_text(in);
  CHECK(narrow != wide);
  CHECK(narrow.find("0000:03:00.0 xHCI (ASM1042 SuperSpeed USB Host Controller)") == std::string::npos);
  CHECK(narrow.find("  sda (stays)  usb4-port1 (USB3 5G)  0000:03...roller)  -      "
                    "USB 3.2 Gen 1 UAS  400.0 given  200.0\n") != std::string::npos);
  // The table rows fit (the prose lines below it are not a table and keep their words).
  for (const std::string_view row : {"  drive ", "  sda (stays)", "  sdb (stays)"}) {
    const auto b = narrow.find(row);
    REQUIRE(b != std::string::npos);
    CHECK(narrow.find('\n', b) - b <= 100);
  }
  auto p = predict_input();
  p.style.width = 90;
  const std::string predict = report::render_predict_text(p);
  CHECK(predict.find(
            "  sda    port 1  400.0        link ceiling  200.0           PCIe 2.0 x1 li... (400.0 MB/s)\n") !=
        std::string::npos);
}

TEST_CASE("plan: an already optimal re-placement says so, with its headroom, in text and JSON") {
  auto in = plan_input();
  in.already_optimal = true;
  in.headroom = report::PlanHeadroom{
      "pcie_link:0000:03:00.0", "PCIe 2.0 x1 link of 0000:03:00.0", 400.0, 340.0, 2, 30.0};
  const auto text = report::render_plan_text(in);
  CHECK(text.find("  already optimal: no move would make the slowest drive or the total faster; every drive "
                  "stays\n") != std::string::npos);
  CHECK(text.find("  headroom: 30.0 MB/s more per drive before the PCIe 2.0 x1 link of 0000:03:00.0 is full "
                  "(340.0 of 400.0 MB/s, 2 drives)\n") != std::string::npos);
  const auto j = nlohmann::json::parse(report::render_plan_json(in));
  CHECK(j["already_optimal"] == true);
  CHECK(j["headroom"]["resource"] == "pcie_link:0000:03:00.0");
  CHECK(j["headroom"]["per_drive_mbs"] == 30.0);
  CHECK(j["headroom"]["drives"] == 2);

  const auto plain = report::render_plan_text(plan_input());
  CHECK(plain.find("already optimal") == std::string::npos);
  CHECK(plain.find("headroom") == std::string::npos);
  CHECK(nlohmann::json::parse(report::render_plan_json(plan_input()))["headroom"].is_null());
}
