// Golden tests of the doctor renderers over hand-made findings (escaping, ordering, empty reports).
#include <doctest/doctest.h>

#include "tests/support/golden.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/doctor_report.hpp"

using namespace usbsat;
using report::Finding;
using report::FindingSeverity;

namespace {

using usbsat::testing::check_golden;

std::vector<Finding> sample() {
  return {
      Finding{"overcurrent",
              FindingSeverity::Problem,
              {"usb1-port1"},
              {{"usb1-port1/over_current_count", "3"}},
              "Connector usb1-port1 reported 3 over-current events since boot.",
              "Use a powered hub."},
      Finding{"max_sectors_below_hw",
              FindingSeverity::Info,
              {"sdc", "2-1"},
              {{"sdc/queue/max_sectors_kb", "120"}, {"sdc/queue/max_hw_sectors_kb", "32767"}},
              "sdc sends at most 120 KiB per request (\"Turbo mode\").",
              "echo 1024 | sudo tee /sys/block/sdc/queue/max_sectors_kb\nATTR{queue/max_sectors_kb}=\"1024\" "
              "\\ tab\there"},
  };
}

}  // namespace

TEST_CASE("doctor text and JSON goldens") {
  const auto fs = sample();
  const std::vector<topology::Diagnostic> diags{{topology::Severity::Warning,
                                                 "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-3",
                                                 "cannot read descriptors"}};
  const report::DoctorReportInput in{fs, diags, 2, 3};
  check_golden("doctor_sample.txt", report::render_doctor_text(in));
  check_golden("doctor_sample.json", report::render_doctor_json(in));
}

TEST_CASE("JSON has the documented schema, evidence order kept, and escapes") {
  const auto fs = sample();
  const auto j = nlohmann::ordered_json::parse(report::render_doctor_json({fs, {}, 1, 1}));
  REQUIRE(j["findings"].size() == 2);
  const auto& f = j["findings"][1];
  std::vector<std::string> keys;
  for (auto it = f.begin(); it != f.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"id", "severity", "devices", "evidence", "message", "fix"});
  CHECK(f["severity"] == "info");
  CHECK(f["evidence"].begin().key() == "sdc/queue/max_sectors_kb");
  CHECK(f["fix"].get<std::string>() == fs[1].fix);  // round-trips quotes, backslash, newline, tab
  CHECK(j["worst"] == "problem");
  CHECK(j["diagnostics"].empty());
}

TEST_CASE("no findings is said explicitly") {
  const report::DoctorReportInput in{{}, {}, 1, 1};
  CHECK(report::render_doctor_text(in) ==
        "usbsat doctor: checked 1 USB drive on 1 USB controller: no findings, nothing to fix.\n");
  const auto j = nlohmann::json::parse(report::render_doctor_json(in));
  CHECK(j["findings"].empty());
  CHECK(j["worst"].is_null());
  CHECK(j["checked"]["drives"] == 1);
}

TEST_CASE("worst_severity") {
  CHECK_FALSE(report::worst_severity({}));
  const auto fs = sample();
  CHECK(report::worst_severity(fs) == FindingSeverity::Problem);
  CHECK(report::worst_severity(std::span(fs).subspan(1)) == FindingSeverity::Info);
  CHECK(report::to_string(FindingSeverity::Warning) == "warning");
}

TEST_CASE("doctor text on a colour terminal paints the severities, and only them") {
  const auto fs = sample();
  report::DoctorReportInput in{fs, {}, 2, 3};
  const std::string plain = report::render_doctor_text(in);
  in.style = report::TextStyle{true, 0};
  const std::string coloured = report::render_doctor_text(in);
  CHECK(coloured.find("\n\x1b[1;31mPROBLEM\x1b[0m overcurrent: usb1-port1\n") != std::string::npos);
  CHECK(coloured.find("\n\x1b[36mINFO\x1b[0m max_sectors_below_hw: sdc, 2-1\n") != std::string::npos);
  // Removing the two colour pairs gives back the plain text byte for byte.
  std::string stripped = coloured;
  for (const std::string_view seq : {"\x1b[1;31m", "\x1b[36m", "\x1b[0m"})
    for (auto pos = stripped.find(seq); pos != std::string::npos; pos = stripped.find(seq))
      stripped.erase(pos, seq.size());
  CHECK(stripped == plain);
  CHECK(plain.find('\x1b') == std::string::npos);
}

TEST_CASE("device strings in findings: invalid UTF-8 never breaks the JSON, ESC/BEL never reach the text") {
  std::vector<Finding> fs{Finding{"uas_inactive",
                                  FindingSeverity::Warning,
                                  {"sdb\x1b[2J", "2-1"},
                                  {{"2-1/product", "Evil\x1b[31m\a \xff\xfe"}, {"key\x07", "v"}},
                                  "sdb (Evil\x1b[31m\a \xff\xfe) offers UAS.\nSecond line\twith a tab.",
                                  "echo on\x1b]0;x\a | sudo tee /x\nnext"}};
  const report::DoctorReportInput in{fs, {}, 1, 1};
  std::string json;
  REQUIRE_NOTHROW(json = report::render_doctor_json(in));
  const auto j = nlohmann::json::parse(json);
  CHECK(j["findings"][0]["message"].get<std::string>().find("\xef\xbf\xbd") != std::string::npos);
  const auto text = report::render_doctor_text(in);
  for (char c : {'\x1b', '\a', '\xff', '\xfe'}) CHECK(text.find(c) == std::string::npos);
  CHECK(text.find("sdb\\x1b[2J, 2-1") != std::string::npos);
  CHECK(text.find("Evil\\x1b[31m\\x07 \\xff\\xfe") != std::string::npos);
  // Layout survives: the message's lines stay lines, the tab stays a tab.
  CHECK(text.find("  Second line\twith a tab.\n") != std::string::npos);
  CHECK(text.find("    next\n") != std::string::npos);
}
