// `usbsat saturate` measurement through a fake runner that emulates shared buses, failures and Ctrl-C, and
// the report the command builds of it (src/cli/saturate_input.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "src/analysis/saturate/saturate.hpp"
#include "src/cli/saturate_input.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using namespace usbsat::analysis::saturate;
using namespace usbsat::analysis::common;  // parse_group_spec
using usbsat::cli::to_report;
using usbsat::topology::StorageProtocol;

namespace {

/// A fake runner emulating buses: each target label has a drive cap and a bus; drives on one bus share its
/// capacity equally (max-min fair). Records every call; can fail a drive or request a stop after k calls.
struct FakeBed {
  std::map<std::string, double> drive_cap;      // label -> MB/s
  std::map<std::string, std::string> bus_of;    // label -> bus
  std::map<std::string, double> bus_cap;        // bus -> MB/s
  std::vector<std::vector<std::string>> calls;  // labels per call
  std::vector<unsigned> qds;
  std::string fail_label;      // this target reports an error
  std::size_t stop_after = 0;  // request a stop during call number stop_after (1-based)
  std::stop_source* stop = nullptr;

  load::RunResult run(const std::vector<load::RunTarget>& ts, const load::RunConfig& cfg) {
    calls.emplace_back();
    qds.push_back(cfg.job.queue_depth);
    for (const auto& t : ts) calls.back().push_back(t.label);
    load::RunResult r;
    if (stop_after && calls.size() == stop_after) {
      stop->request_stop();
      r.interrupted = true;
      load::PhaseResult p;
      p.complete = false;
      r.phases.push_back(p);
      return r;
    }
    // Max-min fair share per bus.
    std::map<std::string, std::vector<std::size_t>> on_bus;
    for (std::size_t i = 0; i < ts.size(); ++i) on_bus[bus_of.at(ts[i].label)].push_back(i);
    std::vector<double> rate(ts.size());
    for (auto& [bus, idx] : on_bus) {
      std::sort(idx.begin(), idx.end(),
                [&](auto a, auto b) { return drive_cap.at(ts[a].label) < drive_cap.at(ts[b].label); });
      double left = bus_cap.at(bus);
      for (std::size_t k = 0; k < idx.size(); ++k) {
        const double share = left / static_cast<double>(idx.size() - k);
        rate[idx[k]] = std::min(share, drive_cap.at(ts[idx[k]].label));
        left -= rate[idx[k]];
      }
    }
    load::PhaseResult p;
    for (std::size_t i = 0; i < ts.size(); ++i) {
      load::TargetResult tr;
      tr.target = i;
      tr.stats.measured_ns = 5'000'000'000;
      tr.stats.bytes = static_cast<std::uint64_t>(rate[i] * 5e6);
      if (ts[i].label == fail_label) tr.error = "I/O error at offset 0: Input/output error";
      p.per_target.push_back(tr);
    }
    r.phases.push_back(p);
    return r;
  }

  PhaseRunner runner() {
    return [this](const std::vector<load::RunTarget>& ts, const load::RunConfig& cfg, std::stop_token,
                  const load::SnapshotFn&) { return run(ts, cfg); };
  }
};

std::map<std::string, load::RunTarget> targets_for(const SaturatePlan& plan) {
  std::map<std::string, load::RunTarget> out;
  for (const auto& g : plan.groups)
    for (const auto& d : g.drives) out[d.path] = load::RunTarget{d.path, -1, 1 << 20, 512};
  return out;
}

SaturateSettings settings(unsigned repeat = 1) {
  SaturateSettings s;
  s.engine = "null";
  s.repeat = repeat;
  return s;
}

}  // namespace

TEST_CASE(
    "four drives on a 40 MB/s declared bus: alone, 2, 4 at once -> saturated by the declared capacity") {
  const auto spec = *parse_group_spec("a=/dev/l0,/dev/l1,/dev/l2,/dev/l3@40M");
  const auto plan = plan_declared(std::span(&spec, 1), std::nullopt);
  FakeBed bed;
  for (const auto& d : spec.paths) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  bed.bus_cap["a"] = 40;
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());

  // Phase subsets: each alone, then the first 2, then all 4; every run at the group's QD (32 for unknown).
  REQUIRE(bed.calls.size() == 6);
  CHECK(bed.calls[0] == std::vector<std::string>{"/dev/l0"});
  CHECK(bed.calls[3] == std::vector<std::string>{"/dev/l3"});
  CHECK(bed.calls[4] == std::vector<std::string>{"/dev/l0", "/dev/l1"});
  CHECK(bed.calls[5] == spec.paths);
  CHECK(std::all_of(bed.qds.begin(), bed.qds.end(), [](unsigned q) { return q == 32; }));
  CHECK(!m.interrupted);

  const auto r = to_report(plan, settings(), &m, nullptr);
  REQUIRE(r.groups.size() == 1);
  const auto& p = r.groups[0].passes.at(0);
  REQUIRE(p.result.phases.size() == 3);
  CHECK(p.result.phases[2].n == 4);
  CHECK(p.result.phases[2].aggregate_mbs == doctest::Approx(40));
  CHECK(p.result.phases[2].efficiency.value() == doctest::Approx(0.25));
  CHECK(p.result.phases[2].predicted_aggregate_mbs.value() == doctest::Approx(40));
  CHECK(p.result.verdict == Verdict::Saturated);
  CHECK(p.result.plateau_mbs.value() == doctest::Approx(40));
  REQUIRE(p.result.bottleneck);
  CHECK(p.result.bottleneck->kind == topology::ResourceKind::Declared);
  CHECK(p.result.bottleneck->node == "a");
  CHECK(!p.conclusion.empty());
}

TEST_CASE("capped drives under a wide bus, and a slow drive among fast ones: no contention") {
  const auto spec = *parse_group_spec("b=/dev/x,/dev/y,/dev/slow@400M");
  const auto plan = plan_declared(std::span(&spec, 1), 8u);
  FakeBed bed;
  bed.drive_cap = {{"/dev/x", 100}, {"/dev/y", 100}, {"/dev/slow", 10}};
  for (const auto& d : spec.paths) bed.bus_of[d] = "b";
  bed.bus_cap["b"] = 400;
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());
  CHECK(std::all_of(bed.qds.begin(), bed.qds.end(), [](unsigned q) { return q == 8; }));
  const auto r = to_report(plan, settings(), &m, nullptr);
  const auto& p = r.groups.at(0).passes.at(0);
  CHECK(p.result.verdict == Verdict::NoContention);
  REQUIRE(p.result.phases.size() == 3);  // alone, 2, 3 (all)
  CHECK(p.result.phases[2].n == 3);
  CHECK(p.result.phases[2].aggregate_mbs == doctest::Approx(210));
}

TEST_CASE("two groups in one run are judged separately, solo baselines are reused across groups") {
  const GroupSpec specs[] = {*parse_group_spec("a=/dev/a0,/dev/a1@40M"),
                             *parse_group_spec("b=/dev/b0,/dev/b1@400M"),
                             *parse_group_spec("ab=/dev/a0,/dev/b0")};
  const auto plan = plan_declared(specs, std::nullopt);
  FakeBed bed;
  for (const auto* d : {"/dev/a0", "/dev/a1"}) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  for (const auto* d : {"/dev/b0", "/dev/b1"}) {
    bed.drive_cap[d] = 100;
    bed.bus_of[d] = "b";
  }
  bed.bus_cap = {{"a", 40}, {"b", 400}};
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());
  // 4 solos (group ab reuses a0 and b0) + one pair per group.
  CHECK(bed.calls.size() == 7);
  CHECK(planned_steps(plan, settings()) == 7);
  const auto r = to_report(plan, settings(), &m, nullptr);
  REQUIRE(r.groups.size() == 3);
  CHECK(r.groups[0].passes.at(0).result.verdict == Verdict::Saturated);
  CHECK(r.groups[1].passes.at(0).result.verdict == Verdict::NoContention);
  CHECK(r.groups[2].passes.at(0).result.verdict == Verdict::NoContention);  // different buses: nothing shared
}

TEST_CASE("--repeat: every phase runs N times and the spread feeds the tolerance") {
  const auto spec = *parse_group_spec("a=/dev/l0,/dev/l1@40M");
  const auto plan = plan_declared(std::span(&spec, 1), std::nullopt);
  FakeBed bed;
  for (const auto& d : spec.paths) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  bed.bus_cap["a"] = 40;
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(3), bed.runner(), stop.get_token());
  CHECK(bed.calls.size() == 9);
  const auto r = to_report(plan, settings(3), &m, nullptr);
  const auto& p = r.groups.at(0).passes.at(0);
  CHECK(p.result.phases.at(1).repeats == 3);
  CHECK(p.result.tolerance == doctest::Approx(0.03));  // no noise: the lower clamp
  CHECK(p.result.confidence == Confidence::High);
}

TEST_CASE("a drive that fails is recorded and left out, the others keep their numbers") {
  const auto spec = *parse_group_spec("a=/dev/l0,/dev/l1,/dev/l2@40M");
  const auto plan = plan_declared(std::span(&spec, 1), std::nullopt);
  FakeBed bed;
  for (const auto& d : spec.paths) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  bed.bus_cap["a"] = 40;
  bed.fail_label = "/dev/l1";
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());
  REQUIRE(m.failures.at(0).size() == 1);
  CHECK(m.failures[0][0].dev == "l1");
  CHECK(m.failures[0][0].n == 1);
  // l1 fails alone; the concurrent phase runs the healthy l0 + l2 (2 at once; "all" is then the same pair).
  REQUIRE(bed.calls.size() == 4);
  CHECK(bed.calls[3] == std::vector<std::string>{"/dev/l0", "/dev/l2"});
  const auto r = to_report(plan, settings(), &m, nullptr);
  const auto& p = r.groups.at(0).passes.at(0);
  CHECK(p.result.verdict == Verdict::Saturated);
  CHECK(r.groups[0].failures.size() == 1);
}

TEST_CASE("Ctrl-C: finished phases are kept, the interrupted one is dropped, nothing more runs") {
  const GroupSpec specs[] = {*parse_group_spec("a=/dev/l0,/dev/l1@40M"),
                             *parse_group_spec("b=/dev/m0,/dev/m1")};
  const auto plan = plan_declared(specs, std::nullopt);
  FakeBed bed;
  for (const auto* d : {"/dev/l0", "/dev/l1", "/dev/m0", "/dev/m1"}) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  bed.bus_cap["a"] = 40;
  std::stop_source stop;
  bed.stop = &stop;
  bed.stop_after = 4;  // group a finishes (3 runs); stopped during m0 alone
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());
  CHECK(m.interrupted);
  CHECK(bed.calls.size() == 4);
  CHECK(m.groups[0][0].complete);
  CHECK(m.groups[0][0].phases.size() == 2);
  CHECK(!m.groups[1][0].complete);
  const auto r = to_report(plan, settings(), &m, nullptr);
  CHECK(r.interrupted);
  CHECK(r.groups[0].passes.at(0).result.verdict == Verdict::Saturated);
  CHECK(r.groups[1].passes.empty());  // never measured anything
}

TEST_CASE("random pass: a second pass per group with 4 KiB random reads") {
  const auto spec = *parse_group_spec("a=/dev/l0,/dev/l1@40M");
  const auto plan = plan_declared(std::span(&spec, 1), std::nullopt);
  FakeBed bed;
  for (const auto& d : spec.paths) {
    bed.drive_cap[d] = 1000;
    bed.bus_of[d] = "a";
  }
  bed.bus_cap["a"] = 40;
  auto s = settings();
  s.passes.push_back({load::Pattern::RandRead, 4096});
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), s, bed.runner(), stop.get_token());
  CHECK(bed.calls.size() == 6);
  const auto r = to_report(plan, s, &m, nullptr);
  REQUIRE(r.groups.at(0).passes.size() == 2);
  CHECK(r.groups[0].passes[1].spec.pattern == load::Pattern::RandRead);
  CHECK(r.groups[0].passes[1].spec.block_size == 4096);
}

TEST_CASE("topology groups: the verdict names the modelled link") {
  const auto t = testing::asm1042_card(StorageProtocol::Bot);
  const auto plan = plan_topology(t, {}, std::nullopt);
  FakeBed bed;
  for (const auto* d : {"/dev/sda", "/dev/sdb"}) {
    bed.drive_cap[d] = 310;
    bed.bus_of[d] = "pcie";
  }
  bed.bus_cap["pcie"] = 392;
  std::stop_source stop;
  const auto m = measure(plan, targets_for(plan), settings(), bed.runner(), stop.get_token());
  const auto r = to_report(plan, settings(), &m, &t);
  const auto& p = r.groups.at(0).passes.at(0);
  CHECK(p.result.verdict == Verdict::Saturated);
  REQUIRE(p.result.bottleneck);
  CHECK(p.result.bottleneck->kind == topology::ResourceKind::PcieLink);
  CHECK(r.groups[0].drives[0].where == "port 1");
}
