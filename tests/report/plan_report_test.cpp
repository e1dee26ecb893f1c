// Golden tests of the `usbsat plan` renderers over hand-built plans and predictions (results::Plan and
// results::Prediction; connectors from the in-memory ASM1042 machine, so the connector and controller records
// are real summaries).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/plan_report.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using topology::Bandwidth;
using topology::Basis;
using topology::BasisKind;

namespace {

/// The PCIe 2.0 x1 link of the ASM1042 card at 400 MB/s.
results::Bottleneck x1() {
  return {
      "pcie_link:0000:03:00.0", "0000:03:00.0", topology::ResourceKind::PcieLink, Bandwidth::from_mbs(400.0),
      "PCIe 2.0 x1 link of 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host Controller)"};
}

results::DrivePrediction prediction(std::string dev, double demand, Basis basis, double predicted,
                                    std::optional<results::Bottleneck> b) {
  return {std::move(dev), Bandwidth::from_mbs(demand), std::move(basis), Bandwidth::from_mbs(predicted),
          std::move(b)};
}

report::PredictInput predict_input() {
  report::PredictInput in;
  in.drives.push_back(
      {prediction("sda", 400.0, Basis{BasisKind::LinkCeiling, "USB 3.2 Gen 1 UAS link"}, 200.0, x1()),
       "port 1"});
  in.drives.push_back({prediction("sdb", 170.0, Basis{BasisKind::Given}, 170.0, std::nullopt), "port 2"});
  in.aggregate = Bandwidth::from_mbs(370.0);
  in.bound = {Bandwidth::from_mbs(370.0), {"demand:sdb", "pcie_link:0000:03:00.0"}};
  in.diagnostics.push_back(
      {topology::Severity::Warning, "sdz", "not a block device of the scanned topology; left out"});
  return in;
}

report::PlanInput plan_input() {
  const auto t = testing::asm1042_card();
  report::PlanInput in;
  auto& plan = in.plan;
  plan.replace = true;
  plan.prefer = results::PlanPreference::Speed;
  in.demand = Bandwidth::from_mbs(400.0);
  for (std::size_t i = 0; i < 2; ++i) {
    results::Placement p;
    p.drive = i == 0 ? "sda" : "sdb";
    p.connector = i;
    p.superspeed = true;
    p.rate = topology::UsbRate::Gen1;
    p.protocol = topology::StorageProtocol::Uas;
    p.prediction = prediction(p.drive, 400.0, Basis{BasisKind::Given}, 200.0, x1());
    p.from = i;
    p.moved = false;
    plan.placements.push_back(std::move(p));
    report::PlanPlace at;
    at.connector = topology::summarize_connector(t, i);
    at.port = *at.connector.usb3_port;
    at.controller = topology::summarize_controller(t, t.controllers().front());
    at.from = at.connector;
    in.places.push_back(std::move(at));
    // The slot the connector offers: its USB3 side at 5 Gb/s ("USB3 5G").
    results::PlanSlot slot;
    slot.connector = i;
    slot.usb3_port = topology::Vertex{};
    slot.usb3_speed = topology::UsbSpeed::Super;
    plan.slots.push_back(slot);
  }
  plan.min = Bandwidth::from_mbs(200.0);
  plan.total = Bandwidth::from_mbs(400.0);
  plan.moves = 0;
  const auto now = predict_input();
  plan.current = results::Prediction{{now.drives[0].prediction, now.drives[1].prediction}, {}, now.aggregate};
  in.current = now;
  plan.avoid.push_back(
      {"shared_link",
       "0000:03:00.0",
       Bandwidth::from_mbs(400.0),
       {0, 1},
       "PCIe 2.0 x1 link of 0000:03:00.0: one PCIe link for all ports of the controller, 400 MB/s "
       "in total; two drives there share it"});
  in.avoid_connectors.push_back({"usb3-port1", "usb3-port2"});
  plan.avoid.push_back({"usb2_only",
                        "",
                        Bandwidth::from_mbs(40.0),
                        {},
                        "no USB3 wiring: a SuperSpeed drive there runs at 480 Mb/s, at most about 40 MB/s"});
  in.avoid_connectors.push_back({"a", "b", "c", "d", "e", "f", "g"});
  plan.method = "exhaustive";
  plan.classes = 1;
  plan.evaluated = 1;
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
  in.plan.method = "exhaustive";
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
  CHECK(narrow.find("03:00.0 xHCI (ASM1042 SuperSpeed USB Host Controller)") == std::string::npos);
  CHECK(narrow.find("  sda (stays)  usb4-port1 (USB3 5G)  03:00.0...roller)  -      "
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
  in.plan.already_optimal = true;
  in.plan.headroom = results::Headroom{"pcie_link:0000:03:00.0",
                                       "PCIe 2.0 x1 link of 0000:03:00.0",
                                       Bandwidth::from_mbs(400.0),
                                       Bandwidth::from_mbs(340.0),
                                       2,
                                       Bandwidth::from_mbs(30.0)};
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
