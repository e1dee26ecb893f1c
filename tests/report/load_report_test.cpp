#include <doctest/doctest.h>

#include "tests/support/golden.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/line_printer.hpp"
#include "report/load_report.hpp"
#include "report/progress.hpp"

using namespace usbsat;

namespace {

using usbsat::testing::check_golden;

load::WorkerStats stats(std::uint64_t mb, std::uint64_t lat_base_ns, int errors = 0) {
  load::WorkerStats s;
  s.measured_ns = 5'000'000'000;
  s.bytes = mb * 1'000'000;
  s.ios = s.bytes / 131072;
  s.read_ios = s.ios;
  s.errors = static_cast<std::uint64_t>(errors);
  for (std::uint64_t i = 0; i < s.ios; ++i) {
    const auto v = lat_base_ns + (i % 100) * 1000;
    s.lat_hist.record(v);
    s.lat_ns.add(static_cast<double>(v));
  }
  s.bytes_per_second = {s.bytes / 5, s.bytes / 5, s.bytes / 5, s.bytes / 5, s.bytes / 5};
  s.cpu = {0.01, 0.25};
  return s;
}

/// Two drives on one 40 MB/s bus: each alone, then both; the second fails in the shared phase.
load::RunResult sample_run() {
  load::RunResult r;
  load::PhaseResult a{{0}, {{0, stats(200, 3'000'000), std::nullopt}}, {0.02, 0.3}, 5'000'000'000, true};
  load::PhaseResult b{{1}, {{1, stats(199, 3'100'000), std::nullopt}}, {0.02, 0.31}, 5'000'000'000, true};
  load::PhaseResult c{
      {0, 1},
      {{0, stats(100, 6'000'000), std::nullopt, 0u},  // kept on CPU 0 (load --pin-cpus)
       {1, stats(60, 6'200'000, 1), std::string("I/O error at offset 1048576: Input/output error"), 1u}},
      {0.05, 0.62},
      5'000'000'000,
      true};
  r.phases = {a, b, c};
  return r;
}

report::LoadReportInput sample_input(const load::RunResult& run) {
  load::JobSpec job;
  job.runtime = std::chrono::milliseconds(5000);
  return {"uring",
          job,
          {"/dev/loop1", "/dev/loop2"},
          &run,
          {{"warning", "/dev/loop3", "cannot open: No such file or directory"}}};
}

}  // namespace

TEST_CASE("load text report matches golden") {
  const auto run = sample_run();
  check_golden("load_two_drives.txt", report::render_load_text(sample_input(run)));
}

TEST_CASE("load JSON report matches golden and the documented schema") {
  const auto run = sample_run();
  const auto text = report::render_load_json(sample_input(run));
  check_golden("load_two_drives.json", text);
  const auto j = nlohmann::json::parse(text);
  CHECK(j["engine"] == "uring");
  REQUIRE(j["phases"].size() == 3);
  const auto& shared = j["phases"][2];
  CHECK(shared["targets"] == nlohmann::json({"/dev/loop1", "/dev/loop2"}));
  CHECK(shared["per_target"][0]["mbs"] == 20.0);  // 100 MB in 5 s, MB = 10^6 B
  CHECK(shared["per_target"][0]["error"].is_null());
  CHECK(shared["per_target"][1]["error"] == "I/O error at offset 1048576: Input/output error");
  CHECK(shared["aggregate"]["mbs"] == 32.0);
  for (const char* k : {"mean", "p50", "p90", "p99", "p999", "max"})
    CHECK(shared["per_target"][0]["lat_us"].contains(k));
  CHECK(shared["cpu"]["sys_s"] == 0.62);
  CHECK(j["diagnostics"].size() == 1);
}

TEST_CASE("an interrupted run says so in both renderers") {
  auto run = sample_run();
  run.phases.resize(1);
  run.phases[0].complete = false;
  run.interrupted = true;
  const auto in = sample_input(run);
  CHECK(report::render_load_text(in).find("(interrupted)") != std::string::npos);
  CHECK(nlohmann::json::parse(report::render_load_json(in))["interrupted"] == true);
}

TEST_CASE("format_progress is a pure function of snapshot and time") {
  load::Snapshot s{1,
                   4,
                   1'000'000'000,
                   2'000'000'000,
                   7'000'000'000,
                   {{"/dev/loop1", 0, 40.06}, {"/dev/loop2", 0, 39.94}}};
  CHECK(report::format_progress(s, 1'500'000'000) ==
        "[phase 2/4] 0.5/6.0 s ramp | loop1 40.1 MB/s | loop2 39.9 MB/s");
  CHECK(report::format_progress(s, 4'000'000'000) ==
        "[phase 2/4] 3.0/6.0 s | loop1 40.1 MB/s | loop2 39.9 MB/s");
  CHECK(report::format_progress(s, 9'000'000'000).rfind("[phase 2/4] 6.0/6.0 s |", 0) == 0);
}

TEST_CASE("LinePrinter overprints on a smart terminal and prints lines otherwise") {
  report::LinePrinter smart(true, 20);
  CHECK(smart.finish().empty());
  CHECK(smart.status("short") == "\rshort\x1b[K");
  CHECK(smart.status("a very long status line here") == "\ra very l...ine here\x1b[K");
  CHECK(smart.finish() == "\n");
  CHECK(smart.finish().empty());
  report::LinePrinter dumb(false, 20);
  CHECK(dumb.status("x") == "x\n");
  CHECK(dumb.finish().empty());
  report::LinePrinter unknown_width(true, 0);  // width unknown: the line is not elided
  CHECK(unknown_width.status("a very long status line here") == "\ra very long status line here\x1b[K");
}
