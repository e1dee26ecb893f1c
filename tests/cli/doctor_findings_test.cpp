// The doctor's findings rendered as they are (one Finding type, topology/results/finding.hpp): the severity
// words, the text and JSON renderings, and the goldens.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/doctor_report.hpp"
#include "src/cli/predict_input.hpp"
#include "tests/analysis/doctor/doctor_fixture.hpp"
#include "tests/support/golden.hpp"

using namespace usbsat;
using namespace usbsat::testing;
TEST_CASE("doctor findings: severity words both ways, the worst one, no findings said, drives counted") {
  for (const auto s : {FindingSeverity::Info, FindingSeverity::Warning, FindingSeverity::Problem})
    CHECK(results::parse_finding_severity(results::to_string(s)) == s);
  CHECK(results::to_string(FindingSeverity::Problem) == "problem");
  CHECK(!results::parse_finding_severity("Problem"));
  const auto ws = diagnose(workstation(), {.usb_storage_quirks = kWorkstationQuirks});
  CHECK(report::worst_severity(ws.findings) == report::FindingSeverity::Problem);

  const auto healthy = diagnose(healthy_ssd(), {.usb_storage_quirks = "", .uas_driver_loaded = true});
  CHECK(!report::worst_severity(healthy.findings));
  CHECK(contains(report::render_doctor_text({{}, {}, healthy.controllers_checked, healthy.drives_checked}),
                 "no findings"));

  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(card_reader_two_cards(), {.predictor = &model});
  const auto text = report::render_doctor_text({r.findings, {}, r.controllers_checked, r.drives_checked});
  CHECK(contains(text, "checked 2 USB drives on 1 USB controller"));
}

TEST_CASE("export and report hand predict_current's prediction to the doctor: the doctor's own findings") {
  // diagnose_system(scan, kb, &prediction) stands for the doctor's ModelSharePredictor: both must model the
  // same problem (every USB drive with media at its link ceiling), or shared_bandwidth would differ.
  const analysis::doctor::ModelSharePredictor model;
  bool shared = false;
  for (const auto& t :
       {workstation(), asm1042_card(), asm1042_card(StorageProtocol::Bot), pcie_switch_card(4),
        four_sticks_on_root_ports(HcdKind::Ehci), card_reader_two_cards(), usb4_dock_hub(), healthy_ssd()}) {
    const cli::HistoryContext h{{}, topology::nominal_model(), ""};
    const auto current = cli::predict_current(t, h);
    const analysis::doctor::PredictedShares given(current.prediction, &current.at_ceiling);
    const auto own = diagnose(t, {.predictor = &model}), handed = diagnose(t, {.predictor = &given});
    CHECK(handed.findings == own.findings);
    CHECK(analysis::doctor::shares_of(t, current.prediction).size() == current.problem.drives.size());
    shared |= std::ranges::count(ids(own.findings), "shared_bandwidth") > 0;
  }
  CHECK(shared);  // the comparison covered the check that reads the prediction
}

TEST_CASE("workstation renders to the golden text and JSON") {
  const auto t = workstation();
  const auto r = diagnose(t, {.usb_storage_quirks = kWorkstationQuirks, .uas_driver_loaded = true});
  const report::DoctorReportInput in{r.findings, {}, r.controllers_checked, r.drives_checked};
  check_golden("doctor_workstation.txt", report::render_doctor_text(in));
  check_golden("doctor_workstation.json", report::render_doctor_json(in));
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
