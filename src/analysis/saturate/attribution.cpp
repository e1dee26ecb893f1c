#include "src/analysis/saturate/attribution.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "topology/base/text.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::saturate {
double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

namespace {

/// Sample coefficient of variation (n - 1 in the denominator); 0 for fewer than two values or a zero mean.
double cv(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  if (m <= 0) return 0;
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1)) / m;
}

/// Per-run aggregates of a concurrent phase: run r sums every drive's r-th value (runs all drives have).
std::vector<double> run_aggregates(const PhaseMeasurement& p) {
  std::size_t runs = p.drives.empty() ? 0 : p.drives.front().mbs.size();
  for (const auto& d : p.drives) runs = std::min(runs, d.mbs.size());
  std::vector<double> out(runs, 0.0);
  for (const auto& d : p.drives)
    for (std::size_t r = 0; r < runs; ++r) out[r] += d.mbs[r];
  return out;
}

std::string fmt_mbs(double v) {
  // Notes are plain sentences; whole MB/s is the precision the measurements have.
  return topology::mbs_text(v);
}

}  // namespace

namespace {

/// What the settle rule says of a phase: whether every run of every drive settled, after how long (the
/// longest), and the largest in-window spread. nullopt when the phase ran for a fixed time.
struct PhaseSettle {
  bool settled = true;
  double after_s = 0;
  double spread = 0;
};

std::optional<PhaseSettle> phase_settle(const PhaseMeasurement& p) {
  std::optional<PhaseSettle> out;
  for (const auto& d : p.drives) {
    if (d.settle.empty()) return std::nullopt;  // a drive without settle figures: fixed-length runs
    if (!out) out.emplace();
    for (const auto& r : d.settle) {
      out->settled = out->settled && r.settled;
      out->after_s = std::max(out->after_s, r.after_s);
      out->spread = std::max(out->spread, r.spread);
    }
  }
  return out;
}

}  // namespace

double derive_tolerance(const std::vector<PhaseMeasurement>& phases) {
  bool repeated = false, all_settle_rule = !phases.empty(), all_settled = true;
  double noise = 0, window = 0;  // 3 x the repeats' cv, 2 x the settled windows' spread: the same scale
  for (const auto& p : phases) {
    if (p.n <= 1) {
      for (const auto& d : p.drives) {
        if (d.mbs.size() >= 2) repeated = true;
        noise = std::max(noise, cv(d.mbs));
      }
    } else {
      const auto agg = run_aggregates(p);
      if (agg.size() >= 2) repeated = true;
      noise = std::max(noise, cv(agg));
    }
    const auto settle = phase_settle(p);
    all_settle_rule = all_settle_rule && settle.has_value();
    all_settled = all_settled && settle && settle->settled;
    if (settle) window = std::max(window, settle->spread);
  }
  if (!repeated && !all_settle_rule) return kDefaultTolerance;
  const double tol = std::clamp(std::max(3 * noise, 2 * window), 0.03, 0.25);
  return !repeated && !all_settled ? std::max(tol, kDefaultTolerance) : tol;
}

FlowProblem subproblem(const FlowProblem& p, std::span<const DemandSpec> drives) {
  FlowProblem out;
  out.resources = p.resources;
  for (const auto& spec : drives) {
    const std::string_view dev = topology::strip_dev_prefix(spec.dev);
    auto it =
        std::find_if(p.drives.begin(), p.drives.end(), [&](const FlowDrive& d) { return d.dev == dev; });
    if (it == p.drives.end()) continue;
    FlowDrive d = *it;
    if (spec.demand) {
      d.demand = *spec.demand;
      d.basis = spec.basis;
    }
    out.drives.push_back(std::move(d));
  }
  return out;
}

namespace {

/// Solo baselines: the mean of each drive's n == 1 runs.
std::map<std::string, double> solo_baselines(const std::vector<PhaseMeasurement>& phases) {
  std::map<std::string, double> solo;
  for (const auto& p : phases)
    if (p.n <= 1)
      for (const auto& d : p.drives)
        if (!d.mbs.empty()) solo[d.dev] = mean(d.mbs);
  return solo;
}

/// Rule 14: a --group without a declared capacity.
bool is_open_group(const GroupInput& in) {
  return in.declared_group && std::none_of(in.candidates.begin(), in.candidates.end(),
                                           [](const auto& c) { return c.capacity.has_value(); });
}

/// Rule 14: an open group's phase shows a plain shared ceiling when the drives together deliver at least
/// what the best of them does alone.
bool measured_ceiling(const PhaseResult& r, double tol) {
  double best_solo = 0;
  for (const auto& d : r.drives) best_solo = std::max(best_solo, d.solo_mbs.value_or(0.0));
  return best_solo > 0 && r.aggregate_mbs >= best_solo * (1 - tol);
}

/// One phase's numbers: each drive's mean and solo rate, the aggregate (the sum of solo rates for n == 1,
/// the reference the others are judged by), its repeats and spread, and its efficiency against the solo sum.
PhaseResult phase_numbers(const PhaseMeasurement& p, const std::map<std::string, double>& solo,
                          std::vector<std::string>& notes) {
  PhaseResult r;
  r.n = p.n;
  double solo_sum = 0;
  bool have_solo = !p.drives.empty();
  for (const auto& d : p.drives) {
    DrivePhaseResult dr{d.dev, mean(d.mbs), std::nullopt};
    if (auto it = solo.find(d.dev); it != solo.end()) {
      dr.solo_mbs = it->second;
      solo_sum += it->second;
    } else {
      have_solo = false;
    }
    r.drives.push_back(std::move(dr));
  }
  if (p.n <= 1) {
    for (const auto& d : r.drives) r.aggregate_mbs += d.mbs;
    std::size_t runs = p.drives.empty() ? 0 : p.drives.front().mbs.size();
    for (const auto& d : p.drives) runs = std::min(runs, d.mbs.size());
    r.repeats = static_cast<unsigned>(runs);
  } else {
    const auto agg = run_aggregates(p);
    r.repeats = static_cast<unsigned>(agg.size());
    r.aggregate_mbs = mean(agg);
    if (agg.size() >= 2 && r.aggregate_mbs > 0)
      r.spread = (*std::max_element(agg.begin(), agg.end()) - *std::min_element(agg.begin(), agg.end())) /
                 r.aggregate_mbs;
  }
  if (const auto settle = phase_settle(p)) {
    r.settled = settle->settled;
    if (settle->settled) r.settled_after_s = settle->after_s;
    r.window_spread = settle->spread;
    if (!settle->settled)
      notes.push_back(
          (p.n <= 1 ? std::string("a drive alone") : std::to_string(p.n) + " at once") +
          fmt::format(": the rate did not settle in {:.1f} s (its samples strayed ±{:.1f}% from their mean): "
                      "the rate is the whole phase's mean",
                      settle->after_s, settle->spread * 100));
  }
  if (have_solo && solo_sum > 0) {
    r.solo_sum_mbs = solo_sum;
    r.efficiency = r.aggregate_mbs / solo_sum;
  } else if (p.n >= 2) {
    notes.push_back("phase n=" + std::to_string(p.n) + ": a drive has no solo baseline, not judged");
  }
  return r;
}

/// The model's prediction for the phase's n, on the phase and on each of its drives.
void attach_predictions(PhaseResult& r, std::span<const PhasePrediction> predictions) {
  for (const auto& pp : predictions) {
    if (pp.n != r.n) continue;
    r.predicted_aggregate_mbs = pp.prediction.aggregate.mbs();
    for (auto& dr : r.drives)
      for (const auto& share : pp.prediction.drives)
        if (share.dev == dr.dev) dr.predicted_mbs = share.predicted.mbs();
  }
}

/// A concurrent phase's verdict: no contention at full efficiency; else saturated when a candidate's
/// capacity, the prediction or (open group) a plain ceiling explains the aggregate, else unexplained.
/// Returns false when the phase delivered more than the solo sum (inconsistent; said in `notes`).
bool judge_phase(PhaseResult& r, const GroupInput& in, double tol, bool open_group,
                 std::vector<std::string>& notes) {
  if (r.n < 2 || !r.efficiency) return true;
  const bool consistent = *r.efficiency <= 1 + tol;
  if (!consistent)
    notes.push_back("phase n=" + std::to_string(r.n) + ": together " + fmt_mbs(r.aggregate_mbs) +
                    ", more than the sum of the solo rates (" + fmt_mbs(*r.solo_sum_mbs) +
                    "): the measurements are inconsistent, measure again");
  const double predicted = r.predicted_aggregate_mbs.value_or(*r.solo_sum_mbs);
  if (*r.efficiency >= 1 - tol) {
    r.verdict = Verdict::NoContention;
    return consistent;
  }
  bool matched = false;
  for (const auto& c : in.candidates)
    if (c.capacity && std::fabs(r.aggregate_mbs - c.capacity->mbs()) <= tol * c.capacity->mbs())
      matched = true;
  r.verdict = matched || r.aggregate_mbs >= predicted * (1 - tol) || (open_group && measured_ceiling(r, tol))
                  ? Verdict::Saturated
                  : Verdict::Unexplained;
  return consistent;
}

/// The largest n with a verdict that `accept`s, or nullptr.
template <class Accept>
const PhaseResult* largest_phase(const std::vector<PhaseResult>& phases, Accept accept) {
  const PhaseResult* found = nullptr;
  for (const auto& r : phases)
    if (r.verdict && accept(*r.verdict) && (!found || r.n >= found->n)) found = &r;
  return found;
}

/// Rule 14, the plateau: a saturated open group whose contended phases do not all deliver the deciding
/// aggregate (within tol) is losing more as drives are added, which no shared ceiling explains: its
/// saturated phases become unexplained. True when the plateau holds (it is then the group's capacity).
bool check_plateau(GroupVerdict& out, const PhaseResult& deciding, double tol) {
  const double x = deciding.aggregate_mbs;
  const PhaseResult* off = nullptr;
  for (const auto& r : out.phases)
    if (r.verdict && *r.verdict != Verdict::NoContention && std::fabs(r.aggregate_mbs - x) > tol * x)
      off = &r;
  if (!off) return true;
  out.notes.push_back("together the drives deliver " + fmt_mbs(off->aggregate_mbs) + " with " +
                      std::to_string(off->n) + " at once but " + fmt_mbs(x) + " with " +
                      std::to_string(deciding.n) + ": no single shared limit, they get in each other's way");
  for (auto& r : out.phases)
    if (r.verdict && *r.verdict == Verdict::Saturated) r.verdict = Verdict::Unexplained;
  return false;
}

/// The candidate whose capacity is closest to `x` within `tol`; equal distance -> narrower; equal capacity
/// -> nearer (candidates come nearest first). nullptr when none is within `tol`.
const topology::Resource* closest_capacity(std::span<const topology::Resource> candidates, double x,
                                           double tol) {
  const topology::Resource* best = nullptr;
  for (const auto& c : candidates) {
    if (!c.capacity) continue;
    const double cap = c.capacity->mbs(), dist = std::fabs(x - cap);
    if (dist > tol * cap) continue;
    if (!best) {
      best = &c;
      continue;
    }
    const double bcap = best->capacity->mbs(), bdist = std::fabs(x - bcap);
    if (dist < bdist - 1e-9 || (std::fabs(dist - bdist) <= 1e-9 && cap < bcap)) best = &c;
  }
  return best;
}

/// The group's verdict from its deciding phase, and the link that explains it: the closest capacity, the
/// measured plateau of an open group, or else the drives' common ancestor.
void decide(GroupVerdict& out, const GroupInput& in, const PhaseResult& deciding, bool measured_plateau,
            double tol) {
  out.verdict = *deciding.verdict;
  out.plateau_mbs = deciding.aggregate_mbs;
  out.plateau_solo_sum_mbs = deciding.solo_sum_mbs;
  const double x = deciding.aggregate_mbs;
  if (const auto* best = closest_capacity(in.candidates, x, tol)) {
    out.bottleneck = AttributedLink{best->node, best->kind, best->capacity->mbs(), best->label, false};
  } else if (measured_plateau) {
    out.bottleneck = AttributedLink{in.name, topology::ResourceKind::Declared,
                                    x,       "group " + in.name + " (capacity measured)",
                                    false,   true};
    out.notes.push_back("no capacity was declared for group " + in.name + ": its measured plateau, " +
                        fmt_mbs(x) + ", is taken as its capacity");
  } else {
    out.bottleneck = AttributedLink{in.common_ancestor, std::nullopt, std::nullopt, in.common_ancestor, true};
  }
  if (out.verdict == Verdict::Unexplained && deciding.predicted_aggregate_mbs)
    out.notes.push_back("the model predicts " + fmt_mbs(*deciding.predicted_aggregate_mbs) +
                        " together, measured " + fmt_mbs(x) +
                        ": a shared resource the model does not know limits these drives");
}

/// A phase's evidence for the confidence: its runs, plus one when every run settled.
unsigned evidence(const PhaseResult& r) {
  return r.repeats + (r.settled.value_or(false) ? 1u : 0u);
}

/// Confidence: repeats give a measured noise, settled runs a measured flatness (the rules above); a deciding
/// value within half a tolerance of its threshold is borderline and lowers it by one step; inconsistent
/// measurements are low.
Confidence confidence(unsigned min_evidence, double tol, const PhaseResult* judged, bool any_inconsistent) {
  Confidence c = min_evidence >= 3 && tol <= 0.10 ? Confidence::High
                 : min_evidence >= 2              ? Confidence::Medium
                                                  : Confidence::Low;
  if (judged && judged->efficiency && std::fabs(*judged->efficiency - (1 - tol)) < tol / 2 &&
      c != Confidence::Low)
    c = static_cast<Confidence>(static_cast<int>(c) - 1);
  return any_inconsistent ? Confidence::Low : c;
}

}  // namespace

GroupVerdict attribute(const GroupInput& in) {
  GroupVerdict out;
  out.name = in.name;
  out.drives = in.drives;
  out.tolerance = in.tolerance.value_or(derive_tolerance(in.phases));
  const double tol = out.tolerance;
  const auto solo = solo_baselines(in.phases);
  const bool open_group = is_open_group(in);

  // Each phase: its numbers, the prediction, the verdict.
  unsigned min_evidence = 0;
  bool any_inconsistent = false;  // a phase with efficiency > 1 + tol
  for (const auto& p : in.phases) {
    PhaseResult r = phase_numbers(p, solo, out.notes);
    min_evidence = out.phases.empty() ? evidence(r) : std::min(min_evidence, evidence(r));
    attach_predictions(r, in.predictions);
    any_inconsistent |= !judge_phase(r, in, tol, open_group, out.notes);
    out.phases.push_back(std::move(r));
  }

  // The deciding phase: the largest n showing contention; else the largest judged phase.
  const PhaseResult* deciding =
      largest_phase(out.phases, [](Verdict v) { return v != Verdict::NoContention; });
  const PhaseResult* judged = deciding ? deciding : largest_phase(out.phases, [](Verdict) { return true; });
  if (judged) out.deciding_phase = static_cast<std::size_t>(judged - out.phases.data());
  const bool measured_plateau = deciding && open_group && *deciding->verdict == Verdict::Saturated &&
                                check_plateau(out, *deciding, tol);
  if (deciding) {
    decide(out, in, *deciding, measured_plateau, tol);
  } else if (judged && judged->predicted_aggregate_mbs && judged->solo_sum_mbs &&
             *judged->predicted_aggregate_mbs < *judged->solo_sum_mbs * (1 - tol)) {
    out.notes.push_back("the model predicts contention (" + fmt_mbs(*judged->predicted_aggregate_mbs) +
                        " together) but none was measured (" + fmt_mbs(judged->aggregate_mbs) +
                        "): a modelled capacity is too low and could be calibrated");
  }
  if (!judged) out.notes.push_back("no concurrent phase could be judged");
  out.confidence = confidence(min_evidence, tol, judged, any_inconsistent);
  return out;
}

}  // namespace usbsat::analysis::saturate
