#include "report/saturate_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/json_common.hpp"
#include "report/steady_text.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

#include "load/job.hpp"

namespace usbsat::report {
namespace {

using nlohmann::ordered_json;

double round_to(double v, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
}

ordered_json opt_num(const std::optional<double>& v, int digits) {
  return v ? ordered_json(round_to(*v, digits)) : ordered_json(nullptr);
}

std::string level_label(unsigned n) {
  return n == 1 ? "alone" : fmt::format("{} at once", n);
}

std::string pass_title(const SaturatePass& p, unsigned qd) {
  return fmt::format("{} {} qd{}", load::to_string(p.spec.pattern),
                     load::format_binary_size(p.spec.block_size), qd);
}

/// A pass's verdict as shown: without a judged phase (interrupted, failures) none, and no plateau, bottleneck
/// or conclusion either, but a note that says so.
struct ShownVerdict {
  std::optional<results::SaturateVerdict> verdict;
  std::optional<double> plateau_mbs;
  const results::SaturateLink* bottleneck = nullptr;
  std::vector<std::string> notes;
};

ShownVerdict shown_verdict(const SaturatePass& p) {
  const auto& v = p.result;
  if (!results::judged(v)) {
    ShownVerdict none{std::nullopt, std::nullopt, nullptr, v.notes};
    none.notes.push_back("no concurrent phase finished: no verdict");
    return none;
  }
  return {v.verdict, v.plateau_mbs, v.bottleneck ? &*v.bottleneck : nullptr, v.notes};
}

/// The bottleneck's kind as the JSON names it: its resource kind, or "lowest_common_ancestor".
std::string link_kind(const results::SaturateLink& b) {
  return b.kind ? std::string(topology::to_string(*b.kind)) : "lowest_common_ancestor";
}

/// A phase's verdict word, "-" without one.
std::string phase_verdict(const results::SaturatePhase& ph) {
  return ph.verdict ? std::string(results::to_string(*ph.verdict)) : "-";
}

std::string cell(const std::optional<double>& v, int digits = 1) {
  return v ? fmt::format("{:.{}f}", *v, digits) : std::string("-");
}

std::string pct(const std::optional<double>& v) {
  return v ? fmt::format("{:.0f}%", *v * 100) : std::string("-");
}

std::string drive_list(const SaturateGroup& g) {
  std::string out;
  for (std::size_t i = 0; i < g.drives.size(); ++i) {
    out += (i ? ", " : "") + g.drives[i].dev;
    if (!g.drives[i].where.empty()) out += " (" + g.drives[i].where + ")";
  }
  return out;
}

std::string group_heading(const SaturateGroup& g) {
  std::string s = "Group " + g.name;
  if (g.node_label != "group " + g.name) s += ": " + g.node_label;
  if (g.declared_capacity)
    s += " (declared capacity " + topology::mbs_text(g.declared_capacity->mbs(), 1) + ")";
  else if (g.node_kind == "declared")
    s += " (no declared capacity)";
  if (!g.same_drives_as.empty()) {
    s += " — also answers for ";
    for (std::size_t i = 0; i < g.same_drives_as.size(); ++i) s += (i ? ", " : "") + g.same_drives_as[i];
    s += " (same drives)";
  }
  return s;
}

/// The pass's verdict, tolerance and confidence, conclusion and notes, under its table.
void render_verdict_text(std::string& out, const SaturatePass& p, const TextStyle& style) {
  const auto shown = shown_verdict(p);
  using results::SaturateVerdict;
  if (!shown.verdict) {
    out += "    verdict: none (no concurrent phase finished)\n";
  } else if (*shown.verdict == SaturateVerdict::Saturated && shown.plateau_mbs) {
    const auto* b = shown.bottleneck;
    std::string by = b ? " by " + topology::escape_unprintable(b->label) : "";
    if (b && b->capacity_mbs) by += " (" + topology::mbs_text(*b->capacity_mbs, 1) + " modelled)";
    out += fmt::format("    verdict: {} at {}{}\n", paint("saturated", Color::Warning, style),
                       topology::mbs_text(*shown.plateau_mbs, 1), by);
  } else if (*shown.verdict == SaturateVerdict::Unexplained) {
    out += fmt::format("    verdict: {} (unexplained shared resource){}\n",
                       paint("contention above the model", Color::Problem, style),
                       shown.plateau_mbs ? ", plateau " + topology::mbs_text(*shown.plateau_mbs, 1) : "");
  } else {
    out += "    verdict: " + paint("no contention", Color::Good, style) + "\n";
  }
  if (shown.verdict)
    out += fmt::format("    tolerance ±{:.0f}%, confidence {}\n", p.result.tolerance * 100,
                       results::to_string(p.result.confidence));
  if (!p.conclusion.empty()) out += "    " + topology::terminal_safe(p.conclusion) + "\n";
  for (const auto& n : shown.notes) out += "    note: " + topology::terminal_safe(n) + "\n";
}

void render_pass_text(std::string& out, const SaturatePass& p, unsigned qd, const TextStyle& style) {
  out += fmt::format("  {}{}\n", pass_title(p, qd), p.complete ? "" : " (interrupted: partial)");
  const auto& phases = p.result.phases;
  // Table: one row per drive, one column per phase.
  std::vector<std::string> devs;
  for (const auto& ph : phases)
    for (const auto& d : ph.drives)
      if (std::find(devs.begin(), devs.end(), d.dev) == devs.end()) devs.push_back(d.dev);
  // Device names come from the command line and the scan: escaped like every text renderer's strings.
  std::size_t w0 = 14;
  for (const auto& d : devs) w0 = std::max(w0, d.size() + 2);
  constexpr std::size_t kCol = 15;
  auto row = [&](std::string_view label, auto&& value_of) {
    std::string line = fmt::format("    {:<{}}", label, w0);
    for (const auto& ph : phases) line += fmt::format("{:>{}}", value_of(ph), kCol);
    out += line + "\n";
  };
  row("MB/s", [](const results::SaturatePhase& ph) { return level_label(ph.n); });
  for (const auto& dev : devs)
    row(topology::escape_unprintable(dev), [&](const results::SaturatePhase& ph) {
      for (const auto& d : ph.drives)
        if (d.dev == dev) return cell(d.mbs);
      return std::string("-");
    });
  row("aggregate",
      [](const results::SaturatePhase& ph) { return ph.n >= 2 ? cell(ph.aggregate_mbs) : std::string("-"); });
  row("solo sum",
      [](const results::SaturatePhase& ph) { return ph.n >= 2 ? cell(ph.solo_sum_mbs) : std::string("-"); });
  row("efficiency",
      [](const results::SaturatePhase& ph) { return ph.n >= 2 ? pct(ph.efficiency) : std::string("-"); });
  row("predicted", [](const results::SaturatePhase& ph) {
    return ph.n >= 2 ? cell(ph.predicted_aggregate_mbs) : std::string("-");
  });
  bool repeated = false;
  for (const auto& ph : phases) repeated |= ph.repeats > 1;
  if (repeated)
    row("spread", [](const results::SaturatePhase& ph) {
      return ph.n >= 2 ? fmt::format("{:.1f}%", ph.spread * 100) : std::string("-");
    });
  if (std::any_of(phases.begin(), phases.end(), [](const auto& ph) { return ph.settled.has_value(); })) {
    row("settled", [](const results::SaturatePhase& ph) {
      if (!ph.settled) return std::string("-");
      return ph.settled_after_s ? fmt::format("{:.2f} s", *ph.settled_after_s) : std::string("no");
    });
    row("in window", [](const results::SaturatePhase& ph) {
      return ph.window_spread ? fmt::format("±{:.1f}%", *ph.window_spread * 100) : std::string("-");
    });
  }
  row("verdict", phase_verdict);
  render_verdict_text(out, p, style);
}

ordered_json pass_json(const SaturatePass& p, unsigned qd) {
  ordered_json j;
  j["pattern"] = std::string(load::to_string(p.spec.pattern));
  j["bs"] = p.spec.block_size;
  j["qd"] = qd;
  ordered_json phases = ordered_json::array();
  double spread = 0;
  for (const auto& ph : p.result.phases) {
    ordered_json pj;
    pj["n"] = ph.n;
    ordered_json per = ordered_json::object();
    ordered_json pred = ordered_json::object();
    for (const auto& d : ph.drives) {
      per[d.dev] = round_to(d.mbs, 2);
      pred[d.dev] = opt_num(d.predicted_mbs, 2);
    }
    pj["per_drive_mbs"] = per;
    pj["aggregate_mbs"] = round_to(ph.n >= 2 ? ph.aggregate_mbs : 0, 2);
    if (ph.n < 2) pj["aggregate_mbs"] = nullptr;  // each drive ran alone: no aggregate
    pj["efficiency"] = opt_num(ph.efficiency, 4);
    pj["predicted_aggregate_mbs"] =
        ph.n >= 2 ? opt_num(ph.predicted_aggregate_mbs, 2) : ordered_json(nullptr);
    pj["predicted_per_drive_mbs"] = pred;
    pj["solo_sum_mbs"] = opt_num(ph.solo_sum_mbs, 2);
    pj["spread"] = round_to(ph.spread, 4);
    pj["repeats"] = ph.repeats;
    pj["verdict"] =
        ph.verdict ? ordered_json(std::string(results::to_string(*ph.verdict))) : ordered_json(nullptr);
    pj["settled"] = ph.settled ? ordered_json(*ph.settled) : ordered_json(nullptr);
    pj["settled_after_s"] = opt_num(ph.settled_after_s, 3);
    pj["window_spread"] = opt_num(ph.window_spread, 4);
    spread = std::max(spread, ph.spread);
    phases.push_back(pj);
  }
  j["phases"] = phases;
  const auto shown = shown_verdict(p);
  j["verdict"] =
      shown.verdict ? ordered_json(std::string(results::to_string(*shown.verdict))) : ordered_json(nullptr);
  j["plateau_mbs"] = opt_num(shown.plateau_mbs, 2);
  if (const auto* b = shown.bottleneck) {
    ordered_json bj;
    bj["node"] = b->node;
    bj["kind"] = link_kind(*b);
    bj["capacity_mbs"] = opt_num(b->capacity_mbs, 2);
    bj["label"] = b->label;
    j["bottleneck"] = bj;
  } else {
    j["bottleneck"] = nullptr;
  }
  j["conclusion"] = p.conclusion;
  j["tolerance"] = round_to(p.result.tolerance, 4);
  j["confidence"] = std::string(results::to_string(p.result.confidence));
  j["spread"] = round_to(spread, 4);
  j["notes"] = shown.notes;
  j["complete"] = p.complete;
  return j;
}

ordered_json group_head_json(const SaturateGroup& g) {
  ordered_json j;
  j["name"] = g.name;
  j["node"] = {{"kind", g.node_kind}, {"id", g.node_id}, {"label", g.node_label}};
  if (g.declared_capacity) j["node"]["capacity_mbs"] = round_to(g.declared_capacity->mbs(), 2);
  ordered_json drives = ordered_json::array();
  for (const auto& d : g.drives) drives.push_back(d.dev);
  j["drives"] = drives;
  ordered_json where = ordered_json::object();
  for (const auto& d : g.drives) where[d.dev] = {{"path", d.path}, {"where", d.where}};
  j["drive_paths"] = where;
  j["same_drives_as"] = g.same_drives_as;
  j["qd_reason"] = g.qd_reason;
  return j;
}

ordered_json diagnostics_json(const SaturateReport& r) {
  ordered_json d = ordered_json::array();
  for (const auto& x : r.diagnostics)
    d.push_back({{"severity", x.severity}, {"target", x.target}, {"message", x.message}});
  return d;
}

ordered_json job_json(const SaturateReport& r) {
  ordered_json j{
      {"engine", r.engine}, {"runtime_s", r.runtime_s}, {"ramp_s", r.ramp_s}, {"repeat", r.repeat}};
  j["steady"] = r.steady ? steady_rule_json(*r.steady) : ordered_json(nullptr);
  return j;
}

/// "5 s per phase after 1 s ramp", or with the settle rule "phases end when settled (±2% over 1.5 s), at
/// most 5 s after a 0.5 s ramp".
std::string phase_length_text(const SaturateReport& r) {
  if (!r.steady) return fmt::format("{:g} s per phase after {:g} s ramp", r.runtime_s, r.ramp_s);
  return fmt::format("phases end when settled ({}), at most {:g} s after a {:g} s ramp",
                     steady_rule_text(*r.steady), r.runtime_s, r.ramp_s);
}

}  // namespace

std::string render_saturate_text(const SaturateReport& r) {
  std::string out = fmt::format("usbsat saturate: {}{}, engine {}\n", phase_length_text(r),
                                r.repeat > 1 ? fmt::format(", {} repeats", r.repeat) : "", r.engine);
  if (r.interrupted) out += "interrupted: only the phases that finished are shown\n";
  for (const auto& g : r.groups) {
    out += "\n" + topology::terminal_safe(group_heading(g)) + "\n";
    out += "  drives: " + topology::terminal_safe(drive_list(g)) + "\n";
    for (const auto& p : g.passes) render_pass_text(out, p, g.qd, r.style);
    if (g.passes.empty()) out += "  not measured\n";
    for (const auto& f : g.failures)
      out += topology::terminal_safe(
          fmt::format("  failed: {} ({} {}): {}\n", f.dev, f.pass, level_label(f.n), f.message));
  }
  for (const auto& d : r.diagnostics)
    out += topology::terminal_safe(fmt::format("{}: {}: {}\n", d.severity, d.target, d.message));
  return out;
}

std::string render_saturate_json(const SaturateReport& r) {
  ordered_json j;
  ordered_json groups = ordered_json::array();
  for (const auto& g : r.groups) {
    ordered_json gj = group_head_json(g);
    // The first pass (sequential) is the group's own keys; the random pass nests under "random_pass".
    if (!g.passes.empty()) {
      const ordered_json first = pass_json(g.passes.front(), g.qd);
      for (const auto& [k, v] : first.items()) gj[k] = v;
    } else {
      gj["phases"] = ordered_json::array();
      gj["verdict"] = nullptr;
      gj["plateau_mbs"] = nullptr;
      gj["bottleneck"] = nullptr;
      gj["complete"] = false;
    }
    gj["random_pass"] = g.passes.size() > 1 ? pass_json(g.passes[1], g.qd) : ordered_json(nullptr);
    ordered_json failures = ordered_json::array();
    for (const auto& f : g.failures)
      failures.push_back({{"dev", f.dev}, {"pass", f.pass}, {"n", f.n}, {"error", f.message}});
    gj["failures"] = failures;
    groups.push_back(gj);
  }
  j["groups"] = groups;
  j["job"] = job_json(r);
  j["interrupted"] = r.interrupted;
  j["diagnostics"] = diagnostics_json(r);
  return dump_json(j);
}

std::string render_saturate_plan(const SaturateReport& r, bool json) {
  if (json) {
    ordered_json j;
    j["dry_run"] = true;
    ordered_json groups = ordered_json::array();
    for (const auto& g : r.groups) {
      ordered_json gj = group_head_json(g);
      ordered_json phases = ordered_json::array();
      for (unsigned n : g.levels) {
        if (n == 1) {
          for (const auto& d : g.drives) phases.push_back({{"n", 1}, {"drives", {d.dev}}});
          continue;
        }
        ordered_json ds = ordered_json::array();
        for (unsigned i = 0; i < n && i < g.drives.size(); ++i) ds.push_back(g.drives[i].dev);
        phases.push_back({{"n", n}, {"drives", ds}});
      }
      gj["phases"] = phases;
      groups.push_back(gj);
    }
    j["groups"] = groups;
    j["job"] = job_json(r);
    j["diagnostics"] = diagnostics_json(r);
    return dump_json(j);
  }
  std::string out =
      fmt::format("usbsat saturate --dry-run: {}, {} repeat(s)\n", phase_length_text(r), r.repeat);
  for (const auto& g : r.groups) {
    out += "\n" + group_heading(g) + "\n";
    out += "  drives: " + drive_list(g) + "\n";
    out += "  queue depth reason: " + g.qd_reason + "\n";
    out += "  phases:";
    for (unsigned n : g.levels) {
      if (n == 1) {
        out += " each alone;";
        continue;
      }
      std::string ds;
      for (unsigned i = 0; i < n && i < g.drives.size(); ++i) ds += (i ? "+" : "") + g.drives[i].dev;
      out += fmt::format(" {} at once ({});", n, ds);
    }
    out.back() = '\n';
  }
  if (r.groups.empty()) out += "\nno groups: nothing would be measured\n";
  for (const auto& d : r.diagnostics) out += fmt::format("{}: {}: {}\n", d.severity, d.target, d.message);
  return topology::terminal_safe(out);  // no colour here: the whole block goes through the one escaping rule
}

std::string format_saturate_progress(std::string_view group, std::string_view step, std::size_t index,
                                     std::size_t count, const load::Snapshot& s, std::int64_t now_ns) {
  const double total = static_cast<double>(s.end_ns - s.start_ns) / 1e9;
  const double elapsed = std::clamp(static_cast<double>(now_ns - s.start_ns) / 1e9, 0.0, total);
  // Remaining: this phase's rest plus the later steps, each as long as this one.
  const double left =
      total - elapsed + static_cast<double>(count > index + 1 ? count - index - 1 : 0) * total;
  std::string out = fmt::format("[{} {}/{}] {} {:.1f}/{:.1f} s{}, ~{:.0f} s left", group, index + 1, count,
                                step, elapsed, total, now_ns < s.measure_ns ? " ramp" : "", left);
  double sum = 0;
  for (const auto& t : s.targets) {
    const auto slash = t.label.rfind('/');
    out +=
        fmt::format(" | {} {:.1f}", slash == std::string::npos ? t.label : t.label.substr(slash + 1), t.mbs);
    sum += t.mbs;
  }
  if (s.targets.size() > 1) out += fmt::format(" | total {:.1f}", sum);
  return topology::terminal_safe(out + " MB/s");  // group names and paths come from the command line
}

}  // namespace usbsat::report
