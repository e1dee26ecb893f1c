#include "report/load_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/json_common.hpp"
#include "report/steady_text.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

using nlohmann::ordered_json;

/// Round to `digits` decimals so JSON numbers are short and stable.
double rnd(double v, int digits = 3) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

double us(std::uint64_t ns) {
  return static_cast<double>(ns) / 1e3;
}

struct Latency {
  double mean, p50, p90, p99, p999, max;
};

Latency latency_of(const load::WorkerStats& s) {
  // Percentiles are bucket midpoints (≤0.8% off); never report one above the exact maximum.
  const auto& h = s.lat_hist;
  const double max = s.lat_ns.max() / 1e3;
  auto p = [&](double q) { return std::min(us(h.percentile(q)), max); };
  return {s.lat_ns.mean() / 1e3, p(0.50), p(0.90), p(0.99), p(0.999), max};
}

ordered_json lat_json(const load::WorkerStats& s) {
  const auto l = latency_of(s);
  return {{"mean", rnd(l.mean)}, {"p50", rnd(l.p50)},   {"p90", rnd(l.p90)},
          {"p99", rnd(l.p99)},   {"p999", rnd(l.p999)}, {"max", rnd(l.max)}};
}

std::string label_of(const LoadReportInput& in, std::size_t i) {
  return i < in.targets.size() ? in.targets[i] : fmt::format("target{}", i);
}

std::string phase_title(const LoadReportInput& in, const load::PhaseResult& p) {
  std::string names;
  for (std::size_t i = 0; i < p.targets.size(); ++i) names += (i ? " + " : "") + label_of(in, p.targets[i]);
  return p.targets.size() == 1 ? names + " alone" : fmt::format("{} at once: {}", p.targets.size(), names);
}

std::string job_line(const LoadReportInput& in) {
  const auto& j = in.job;
  std::string mix = j.pattern == load::Pattern::RandRW ? fmt::format(" ({}% reads)", j.rwmix_read) : "";
  const double runtime = static_cast<double>(j.runtime.count()) / 1e3;
  const double ramp = static_cast<double>(j.ramp.count()) / 1e3;
  const std::string phases =
      in.steady ? fmt::format("phases end when settled ({}), at most {:g} s after a {:g} s ramp",
                              steady_rule_text(*in.steady), runtime, ramp)
                : fmt::format("{:g} s per phase after {:g} s ramp", runtime, ramp);
  return fmt::format("{}{} {} qd{}, {}, engine {}", load::to_string(j.pattern), mix,
                     load::format_binary_size(j.block_size), j.queue_depth, phases, in.engine);
}

/// "  settled after 2.00 s (window ±0.4%, drift 0.2%)" or "  did not settle ...", under --steady only.
std::string steady_line(const load::SteadyOutcome& s) {
  return fmt::format("  {} {:.2f} s (last window: samples within ±{:.1f}% of its mean, drift {:.1f}%)\n",
                     s.settled ? "settled after" : "did not settle in", static_cast<double>(s.after_ns) / 1e9,
                     s.spread() * 100, s.drift() * 100);
}

ordered_json steady_json(const LoadReportInput& in, const load::PhaseResult& p) {
  if (!p.steady) return nullptr;
  const auto& s = *p.steady;
  ordered_json window = ordered_json::object();
  for (std::size_t i = 0; i < s.targets.size() && i < p.targets.size(); ++i)
    window[label_of(in, p.targets[i])] = rnd(s.targets[i].mbs);
  return {{"settled", s.settled},
          {"after_s", rnd(static_cast<double>(s.after_ns) / 1e9)},
          {"spread", rnd(s.spread(), 4)},
          {"drift", rnd(s.drift(), 4)},
          {"window_mbs", window}};
}

}  // namespace

std::string render_load_text(const LoadReportInput& in) {
  fmt::memory_buffer b;
  auto out = std::back_inserter(b);
  fmt::format_to(out, "usbsat load: {}\n", job_line(in));
  const auto* run = in.run;
  const std::size_t nphases = run ? run->phases.size() : 0;
  const std::size_t planned = run ? std::max(run->planned_phases, nphases) : 0;  // interrupted: fewer ran
  for (std::size_t pi = 0; pi < nphases; ++pi) {
    const auto& p = run->phases[pi];
    fmt::format_to(out, "\nPhase {}/{}: {}{}\n", pi + 1, planned, phase_title(in, p),
                   p.complete ? "" : " (interrupted)");
    fmt::format_to(out, "  {:<20} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6}\n", "target", "MB/s",
                   "IOPS", "mean µs", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors");
    auto row = [&](const std::string& name, const load::WorkerStats& s, double mbs, double iops) {
      const auto l = latency_of(s);
      fmt::format_to(out, "  {:<20} {:>9.1f} {:>9.0f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>6}\n",
                     name, mbs, iops, l.mean, l.p50, l.p99, l.p999, l.max, s.errors);
    };
    for (const auto& t : p.per_target) {
      row(label_of(in, t.target), t.stats, t.stats.mbs(), t.stats.iops());
      if (t.error) fmt::format_to(out, "  {:<20} error: {}\n", "", *t.error);
    }
    if (p.per_target.size() > 1) row("total", p.aggregate(), p.aggregate_mbs(), p.aggregate_iops());
    fmt::format_to(out, "  cpu: user {:.2f} s, sys {:.2f} s\n", p.cpu.user_s, p.cpu.sys_s);
    if (p.steady) fmt::format_to(out, "{}", steady_line(*p.steady));
  }
  if (run && run->interrupted) fmt::format_to(out, "\nInterrupted: partial results.\n");
  for (const auto& d : in.diagnostics) fmt::format_to(out, "{}: {}: {}\n", d.severity, d.target, d.message);
  return topology::terminal_safe(
      fmt::to_string(b));  // no colour here: target names go through the one escaping rule
}

std::string render_load_json(const LoadReportInput& in) {
  const auto& j = in.job;
  ordered_json doc;
  doc["engine"] = in.engine;
  doc["job"] = {{"pattern", load::to_string(j.pattern)},
                {"rwmix_read", j.rwmix_read},
                {"bs", j.block_size},
                {"qd", j.queue_depth},
                {"runtime_s", rnd(static_cast<double>(j.runtime.count()) / 1e3)},
                {"ramp_s", rnd(static_cast<double>(j.ramp.count()) / 1e3)},
                {"offset", j.offset},
                {"size", j.size},
                {"steady", in.steady ? steady_rule_json(*in.steady) : ordered_json(nullptr)}};
  doc["interrupted"] = in.run ? in.run->interrupted : false;
  ordered_json phases = ordered_json::array();
  if (in.run) {
    for (const auto& p : in.run->phases) {
      ordered_json ph;
      ordered_json names = ordered_json::array();
      for (auto t : p.targets) names.push_back(label_of(in, t));
      ph["targets"] = names;
      ph["complete"] = p.complete;
      ordered_json per = ordered_json::array();
      for (const auto& t : p.per_target) {
        const auto& s = t.stats;
        ordered_json series = ordered_json::array();
        for (auto bps : s.bytes_per_second) series.push_back(rnd(static_cast<double>(bps) / 1e6));
        per.push_back({{"target", label_of(in, t.target)},
                       {"mbs", rnd(s.mbs())},
                       {"iops", rnd(s.iops(), 1)},
                       {"bytes", s.bytes},
                       {"ios", s.ios},
                       {"read_ios", s.read_ios},
                       {"write_ios", s.write_ios},
                       {"measured_s", rnd(s.seconds())},
                       {"lat_us", lat_json(s)},
                       {"errors", s.errors},
                       {"error", t.error ? ordered_json(*t.error) : ordered_json(nullptr)},
                       {"pinned_cpu", t.cpu ? ordered_json(*t.cpu) : ordered_json(nullptr)},
                       {"cpu", {{"user_s", rnd(s.cpu.user_s)}, {"sys_s", rnd(s.cpu.sys_s)}}},
                       {"series_mbs", series}});
      }
      ph["per_target"] = per;
      const auto agg = p.aggregate();
      ph["aggregate"] = {{"mbs", rnd(p.aggregate_mbs())},
                         {"iops", rnd(p.aggregate_iops(), 1)},
                         {"bytes", agg.bytes},
                         {"ios", agg.ios},
                         {"lat_us", lat_json(agg)}};
      ph["cpu"] = {{"user_s", rnd(p.cpu.user_s)}, {"sys_s", rnd(p.cpu.sys_s)}};
      ph["steady"] = steady_json(in, p);
      phases.push_back(ph);
    }
  }
  doc["phases"] = phases;
  ordered_json diags = ordered_json::array();
  for (const auto& d : in.diagnostics)
    diags.push_back({{"severity", d.severity}, {"target", d.target}, {"message", d.message}});
  doc["diagnostics"] = diags;
  return dump_json(doc);
}

}  // namespace usbsat::report
