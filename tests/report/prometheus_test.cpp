// The Prometheus textfile renderer (report/prometheus.hpp): label escaping table, and a golden over an input
// with every odd byte a firmware string can hold. tests/cli/export_e2e.py runs promtool over that golden too.
#include <doctest/doctest.h>

#include "report/prometheus.hpp"
#include "tests/support/golden.hpp"

using namespace usbsat;

TEST_CASE("prometheus label values: backslash, quote, newline escaped, invalid UTF-8 and controls as text") {
  struct Row {
    std::string raw, want;
  };
  const Row rows[] = {
      {"SanDisk Extreme", "SanDisk Extreme"},
      {"a\"b", "a\\\"b"},
      {"a\\b", "a\\\\b"},
      {"line1\nline2", "line1\\nline2"},
      {"\n", "\\n"},
      {"bad\xff\xfe", "bad\\\\xff\\\\xfe"},  // invalid UTF-8 -> the text \xff, whose \ is escaped
      {"bell\x07", "bell\\\\x07"},           // a control character likewise
      {"caf\xc3\xa9", "caf\xc3\xa9"},        // valid UTF-8 stays
      {"", ""},
  };
  for (const auto& r : rows) {
    CAPTURE(r.raw);
    CHECK(report::prometheus_label_value(r.raw) == r.want);
  }
}

TEST_CASE("prometheus: golden with odd label values, absent facts and repeated findings") {
  report::PrometheusInput in;
  report::PrometheusDrive sdb;
  sdb.dev = "sdb";
  sdb.vid_pid = "0781:558c";
  sdb.model = "Evil \"Quote\" \\ Drive\n\xff\xfe";
  sdb.controller = "0000:03:00.0";
  sdb.connector = "usb3-port1";
  sdb.link_speed_bytes_per_s = 625000000;
  sdb.capable_speed_bytes_per_s = 1250000000;
  sdb.uas_active = false;
  sdb.uas_capable = true;
  sdb.predicted_share_bytes_per_s = 200000000;
  in.drives.push_back(sdb);
  report::PrometheusDrive sdc;  // an empty card-reader slot: no speed known, no share
  sdc.dev = "sdc";
  in.drives.push_back(sdc);
  in.links.push_back({"pcie_link:0000:03:00.0", "pcie_link", "0000:03:00.0", 400000000});
  const auto warning = results::FindingSeverity::Warning;
  in.findings = {{"uas_inactive", warning, {"sdb", "2-1"}},
                 {"shared_bandwidth", warning, {"sdb", "sdc"}},
                 {"uas_inactive", warning, {"sdb"}},
                 {"pcie_link_degraded", warning, {}}};
  in.scan_duration_seconds = 0.125;
  in.scan_errors = 2;
  testing::check_golden("prometheus_odd.prom", report::render_prometheus(in));
}

TEST_CASE("prometheus: USB4 link families only where there are links, an unknown figure has no series") {
  report::PrometheusInput in;
  CHECK(report::render_prometheus(in).find("usbsat_usb4") == std::string::npos);
  report::PrometheusUsb4Link l;
  l.router = "0-1";
  l.upstream = "0-0";
  l.type = "usb4";
  l.lane_speed_bytes_per_s = 2500000000;
  l.below_capability = true;
  in.usb4_links.push_back(l);
  const auto out = report::render_prometheus(in);
  CHECK(
      out.find("usbsat_usb4_link_lane_speed_bytes_per_second{router=\"0-1\",upstream=\"0-0\",type=\"usb4\"} "
               "2500000000\n") != std::string::npos);
  CHECK(out.find("usbsat_usb4_link_below_capability{router=\"0-1\",upstream=\"0-0\",type=\"usb4\"} 1\n") !=
        std::string::npos);
  CHECK(out.find("# TYPE usbsat_usb4_link_lanes gauge\n# HELP") != std::string::npos);  // no lanes: no series
}
