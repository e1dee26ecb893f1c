// Golden tests of the `usbsat saturate` renderers (text, JSON, dry-run plan) and the progress line.
#include <doctest/doctest.h>

#include "tests/support/golden.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/saturate_report.hpp"

using namespace usbsat;
using namespace usbsat::report;

namespace {

using results::SaturateVerdict;
using topology::Bandwidth;
using usbsat::testing::check_golden;

/// A drive's rate in a phase and its predicted fair share.
results::SaturateDriveRate rate(std::string dev, double mbs, std::optional<double> predicted = {}) {
  return {std::move(dev), mbs, std::nullopt, predicted};
}

results::SaturatePhase row(unsigned n, std::vector<results::SaturateDriveRate> d, double agg,
                           std::optional<double> solo_sum, std::optional<double> pred,
                           std::optional<SaturateVerdict> verdict) {
  results::SaturatePhase r;
  r.n = n;
  r.drives = std::move(d);
  r.aggregate_mbs = agg;
  r.solo_sum_mbs = solo_sum;
  if (solo_sum) r.efficiency = agg / *solo_sum;
  r.predicted_aggregate_mbs = pred;
  r.repeats = 1;
  r.verdict = verdict;
  return r;
}

/// Two groups: a saturated 40 MB/s declared bus with four drives (one failed in a later pass), and an
/// ASM1042 topology group without contention, with a random pass.
SaturateReport sample() {
  SaturateReport r;
  r.engine = "uring";
  r.runtime_s = 5;
  r.ramp_s = 1;
  r.repeat = 1;

  SaturateGroup a;
  a.name = "a";
  a.node_kind = "declared";
  a.node_id = "a";
  a.node_label = "group a";
  a.declared_capacity = Bandwidth::from_mbs(40);
  for (const auto* d : {"loop2", "loop3", "loop4", "loop5"})
    a.drives.push_back({d, std::string("/dev/") + d, ""});
  a.qd_reason = "protocol unknown: deep queue";
  a.qd = 32;
  a.levels = {1, 2, 4};
  SaturatePass p;
  p.spec = {load::Pattern::Read, 131072};
  auto& pv = p.result;
  pv.phases.push_back(
      row(1, {rate("loop2", 40.01), rate("loop3", 39.98), rate("loop4", 40.02), rate("loop5", 39.99)}, 0, {},
          {}, {}));
  pv.phases.push_back(row(2, {rate("loop2", 20.1, 20.0), rate("loop3", 19.93, 20.0)}, 40.03, 79.99, 40,
                          SaturateVerdict::Saturated));
  pv.phases.push_back(row(
      4,
      {rate("loop2", 10.02, 10), rate("loop3", 9.99, 10), rate("loop4", 10.01, 10), rate("loop5", 9.97, 10)},
      39.99, 160, 40, SaturateVerdict::Saturated));
  pv.verdict = SaturateVerdict::Saturated;
  pv.plateau_mbs = 39.99;
  pv.bottleneck =
      results::SaturateLink{"a", topology::ResourceKind::Declared, 40, "declared capacity of group a"};
  p.conclusion = "loop2, loop3, loop4 and loop5 share group a: together 40 MB/s of 4×40 MB/s solo (25%).";
  pv.tolerance = 0.07;
  pv.confidence = results::SaturateConfidence::Low;
  a.passes.push_back(p);
  r.groups.push_back(a);

  SaturateGroup c;
  c.name = "0000:03:00.0";
  c.node_kind = "controller";
  c.node_id = "0000:03:00.0";
  c.node_label = "xHCI controller 0000:03:00.0 (ASM1042)";
  c.same_drives_as = {"0000:00:1c.0"};
  c.drives = {{"sdb", "/dev/sdb", "port 1"}, {"sdc", "/dev/sdc", "port 2"}};
  c.qd = 32;
  c.qd_reason = "UAS: queued commands";
  c.levels = {1, 2};
  SaturatePass q;
  q.spec = {load::Pattern::Read, 131072};
  auto& qv = q.result;
  qv.phases.push_back(row(1, {rate("sdb", 180.5), rate("sdc", 170.25)}, 0, {}, {}, {}));
  qv.phases.push_back(row(2, {rate("sdb", 179.5, 180.5), rate("sdc", 169, 170.25)}, 348.5, 350.75, 350.75,
                          SaturateVerdict::NoContention));
  qv.phases[1].repeats = 3;
  qv.phases[1].spread = 0.012;
  qv.verdict = SaturateVerdict::NoContention;
  qv.tolerance = 0.05;
  qv.confidence = results::SaturateConfidence::High;
  q.conclusion = "sdb (port 1) and sdc (port 2) do not limit each other.";
  c.passes.push_back(q);
  // Interrupted after the solo phase: no phase judged, so no verdict (the renderer says why in a note).
  SaturatePass rnd = q;
  rnd.spec = {load::Pattern::RandRead, 4096};
  rnd.complete = false;
  rnd.result.phases.resize(1);
  rnd.conclusion.clear();
  c.passes.push_back(rnd);
  c.failures.push_back({"sdc", "randread", 2, "I/O error at offset 4096: Input/output error"});
  r.groups.push_back(c);
  r.diagnostics.push_back({"warning", "/dev/sdc", "O_DIRECT refused; buffered I/O"});
  return r;
}

}  // namespace

TEST_CASE("saturate text report (golden)") {
  check_golden("saturate_two_groups.txt", render_saturate_text(sample()));
}

TEST_CASE("saturate JSON report (golden) has the issue's schema") {
  const auto text = render_saturate_json(sample());
  check_golden("saturate_two_groups.json", text);
  const auto j = nlohmann::json::parse(text);
  const auto& g = j["groups"][0];
  CHECK(g["name"] == "a");
  CHECK(g["node"]["kind"] == "declared");
  CHECK(g["node"]["id"] == "a");
  CHECK(g["drives"] == nlohmann::json::array({"loop2", "loop3", "loop4", "loop5"}));
  CHECK(g["phases"][2]["n"] == 4);
  CHECK(g["phases"][2]["per_drive_mbs"]["loop5"] == 9.97);
  CHECK(g["phases"][2]["aggregate_mbs"] == 39.99);
  CHECK(g["phases"][2]["efficiency"] == doctest::Approx(0.2499));
  CHECK(g["phases"][2]["predicted_aggregate_mbs"] == 40.0);
  CHECK(g["verdict"] == "saturated");
  CHECK(g["plateau_mbs"] == 39.99);
  CHECK(g["bottleneck"]["node"] == "a");
  CHECK(g["bottleneck"]["kind"] == "declared");
  CHECK(g["bottleneck"]["capacity_mbs"] == 40.0);
  CHECK(g["random_pass"].is_null());
  CHECK(j["groups"][1]["random_pass"]["verdict"].is_null());
  CHECK(j["groups"][1]["failures"][0]["dev"] == "sdc");
  // Deterministic: same input, same bytes.
  CHECK(render_saturate_json(sample()) == text);
}

TEST_CASE("saturate report with settled phases (golden): the rule, settled after, in-window spread") {
  // Group a measured under the settle rule: alone and 2 at once settled, 4 at once did not.
  auto r = sample();
  r.steady = load::SteadyRule{};
  r.ramp_s = 0.5;
  r.groups.resize(1);
  auto& p = r.groups[0].passes[0].result;
  const double after[] = {2.0, 2.25, 5.5};
  const double spread[] = {0.004, 0.006, 0.052};
  for (std::size_t i = 0; i < p.phases.size(); ++i) {
    p.phases[i].settled = i < 2;
    if (i < 2) p.phases[i].settled_after_s = after[i];
    p.phases[i].window_spread = spread[i];
  }
  p.tolerance = 0.104;
  check_golden("saturate_settled.txt", render_saturate_text(r));
  const auto j = nlohmann::json::parse(render_saturate_json(r));
  CHECK(j["job"]["steady"]["bound"] == 0.05);
  CHECK(j["job"]["steady"]["window_s"] == 1.5);
  const auto& phases = j["groups"][0]["phases"];
  CHECK(phases[0]["settled"] == true);
  CHECK(phases[1]["settled_after_s"] == 2.25);
  CHECK(phases[2]["settled"] == false);
  CHECK(phases[2]["settled_after_s"].is_null());
  CHECK(phases[2]["window_spread"] == 0.052);
  CHECK(nlohmann::json::parse(render_saturate_json(sample()))["job"]["steady"].is_null());
}

TEST_CASE("saturate dry-run plan (golden)") {
  auto r = sample();
  r.dry_run = true;
  for (auto& g : r.groups) {
    g.passes.clear();
    g.failures.clear();
  }
  check_golden("saturate_plan.txt", render_saturate_plan(r, false));
  const auto j = nlohmann::json::parse(render_saturate_plan(r, true));
  CHECK(j["dry_run"] == true);
  const auto& phases = j["groups"][0]["phases"];
  REQUIRE(phases.size() == 6);  // 4 alone, 2 at once, 4 at once
  CHECK(phases[4]["drives"] == nlohmann::json::array({"loop2", "loop3"}));
  CHECK(phases[5]["n"] == 4);
}

TEST_CASE("saturate progress line: group, step, elapsed/total, ramp, per-drive and total MB/s") {
  load::Snapshot s;
  s.start_ns = 0;
  s.measure_ns = 1'000'000'000;
  s.end_ns = 6'000'000'000;
  s.targets = {{"/dev/loop2", 0, 20.14}, {"/dev/loop3", 0, 19.86}};
  CHECK(format_saturate_progress("a", "2 at once", 4, 6, s, 500'000'000) ==
        "[a 5/6] 2 at once 0.5/6.0 s ramp, ~12 s left | loop2 20.1 | loop3 19.9 | total 40.0 MB/s");
  s.targets.resize(1);
  CHECK(format_saturate_progress("a", "loop2 alone", 0, 6, s, 3'000'000'000) ==
        "[a 1/6] loop2 alone 3.0/6.0 s, ~33 s left | loop2 20.1 MB/s");
}

TEST_CASE(
    "saturate verdict line on a colour terminal: no contention green, saturated yellow, unexplained red") {
  auto r = sample();
  const std::string plain = render_saturate_text(r);
  r.style.color = true;
  const std::string coloured = render_saturate_text(r);
  CHECK(coloured.find("    verdict: \x1b[33msaturated\x1b[0m at ") != std::string::npos);
  std::string stripped = coloured;
  for (const std::string_view seq : {"\x1b[33m", "\x1b[32m", "\x1b[1;31m", "\x1b[0m"})
    for (auto pos = stripped.find(seq); pos != std::string::npos; pos = stripped.find(seq))
      stripped.erase(pos, seq.size());
  CHECK(stripped == plain);

  r.groups[0].passes[0].result.verdict = SaturateVerdict::NoContention;
  CHECK(render_saturate_text(r).find("    verdict: \x1b[32mno contention\x1b[0m\n") != std::string::npos);
  r.groups[0].passes[0].result.verdict = SaturateVerdict::Unexplained;
  CHECK(render_saturate_text(r).find(
            "    verdict: \x1b[1;31mcontention above the model\x1b[0m (unexplained") != std::string::npos);
  r.style.color = false;
  CHECK(render_saturate_text(r).find('\x1b') == std::string::npos);
}
