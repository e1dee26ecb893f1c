#pragma once
/// The saturation verdict for one group of drives that share a node: from measured solo and concurrent
/// phases and the model's prediction, decide `no_contention`, `saturated` (at a plateau, by a named link) or
/// `unexplained` (contention the model does not predict), with a tolerance derived from the noise.
///
/// Rules (written down only here; src/README.md, "usbsat saturate", points to them):
///  * efficiency = aggregate / sum of the drives' solo rates. Judged against the *sum of solo rates*, a slow
///    drive next to fast ones is no alarm: unequal shares are not contention, a lost aggregate is.
///  * efficiency >= 1 - tol                                   -> no_contention
///  * else the plateau is the aggregate; a candidate link (on the common path, capacity known) whose capacity
///    is within tol of the plateau is the bottleneck (closest match; equal capacities: the nearest to the
///    drives)                                                 -> saturated
///  * else, if the model predicted this much contention (aggregate >= predicted * (1 - tol)), the limit is
///    stated as the lowest common ancestor                    -> saturated
///  * else, for a user's --group without a declared capacity (the user said these drives share something),
///    a clear plateau is that group's limit, its capacity measured: every phase showing contention delivers
///    at least the best drive's solo rate (1 - tol) and no more or less than the deciding plateau (within
///    tol)                                                    -> saturated by the group, capacity = plateau
///    (an aggregate that falls below the best solo rate, or keeps falling as drives are added, is more than
///    a shared ceiling: unexplained)
///  * else the drives lose more than any modelled resource explains; the unknown shared resource is at or
///    above the lowest common ancestor                        -> unexplained
///  * tol, from the noise measured: 3 x the largest coefficient of variation over repeats (solo rates and
///    concurrent aggregates), and 2 x the largest in-window spread of phases run under the settle rule
///    (load/steady.hpp: how far a 750 ms sample strays from its 1.5 s window's mean bounds how far that mean
///    is off; an efficiency is a ratio of two such means). With repeats, or with every phase run under the
///    settle rule, tol = the larger of the two clamped to [3%, 25%]; a phase that did not settle keeps it at
///    7% or more unless repeats measured the noise; with neither, tol = 7%.
///  * confidence: each phase's evidence is its number of runs, plus one when every run of it settled; the
///    least evidence of any phase is 3 or more (and tol <= 10%) -> high, 2 -> medium, else low. So one run of
///    settled phases is medium, settled phases repeated twice are high; fixed-length phases need 3 repeats.
///    A deciding efficiency within half a tolerance of its threshold lowers it one step; inconsistent
///    numbers (below) make it low.
///  * efficiency > 1 + tol cannot happen with honest numbers (drives together deliver more than the sum of
///    their solo rates): the phase keeps its verdict, a note says the numbers are inconsistent and the
///    confidence is low.
/// The group's verdict is that of the largest phase showing contention (else no_contention).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/predict.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/results/saturate.hpp"

namespace usbsat::analysis::saturate {

using model::DemandSource;
using model::DemandSpec;
using model::FlowDrive;
using model::FlowProblem;
using model::Prediction;

// The verdict's types: the one definition (topology/results/saturate.hpp), which report renders as it is.
using Verdict = results::SaturateVerdict;        ///< "no_contention", "saturated", "unexplained"
using Confidence = results::SaturateConfidence;  ///< "low", "medium", "high"
using results::to_string;

/// Default relative tolerance when there are no repeats to measure the noise.
inline constexpr double kDefaultTolerance = results::kSaturateDefaultTolerance;

/// A drive of the group and where it is plugged in, for the conclusion text ("port 3", may be empty).
using GroupDrive = results::SaturateGroupDrive;

/// How one run of a phase ended under the settle rule (load/steady.hpp).
struct RunSettle {
  bool settled = false;
  double after_s = 0;  ///< from the phase's start (ramp included) to settling, or to its end
  double spread = 0;   ///< the drive's largest sample distance from its window's mean, fraction of it
};

/// One drive's MB/s in one phase, one value per repeat; `settle`, one per repeat too, is empty for phases of
/// fixed length.
struct DriveRates {
  std::string dev;
  std::vector<double> mbs;
  std::vector<RunSettle> settle;
};

/// One phase: `n` drives reading at once. For n == 1 each drive was measured alone: its solo baseline.
/// For n >= 2, repeat r of every drive ran concurrently, so their r-th values add up to that run's aggregate.
struct PhaseMeasurement {
  unsigned n = 1;
  std::vector<DriveRates> drives;
};

/// The model's prediction for the phase with `n` drives (usually predict_fair_share over the phase's drives
/// with their measured solo rates as demands, see subproblem()).
struct PhasePrediction {
  unsigned n = 0;
  Prediction prediction;
};

struct GroupInput {
  std::string name;                          ///< group name: the shared node's id, or NAME of --group
  std::vector<GroupDrive> drives;            ///< in display order
  std::vector<PhaseMeasurement> phases;      ///< should contain n == 1
  std::vector<PhasePrediction> predictions;  ///< optional, matched to phases by n
  /// Shared resources on the drives' common path, nearest first (a --group: its Declared resource or none).
  std::vector<topology::Resource> candidates;
  /// The lowest common ancestor, described ("controller 0000:03:00.0 (ASM1042)"; a --group: its NAME).
  std::string common_ancestor;
  std::optional<double> tolerance;  ///< force a tolerance instead of deriving it from the noise
  /// A user's --group: the user declared that these drives share something (with or without a capacity).
  bool declared_group = false;
};

/// What the verdict names as the limit.
using AttributedLink = results::SaturateLink;
/// One drive's figures in one phase.
using DrivePhaseResult = results::SaturateDriveRate;
/// JSON-ready: {"n","per_drive_mbs","aggregate_mbs","efficiency","predicted_aggregate_mbs"} plus the spread.
using PhaseResult = results::SaturatePhase;
/// The verdict on one group (and pass).
using GroupVerdict = results::SaturateGroupVerdict;

/// Judge one group. Pure and deterministic.
GroupVerdict attribute(const GroupInput& in);

/// The tolerance the noise in `phases` allows (see the rules above).
double derive_tolerance(const std::vector<PhaseMeasurement>& phases);

/// The arithmetic mean of a run's samples; 0 for none.
double mean(const std::vector<double>& v);

/// `p` restricted to the drives of `drives` (in that order) with their demands replaced where a spec gives
/// one (DemandSource::Measured for solo rates); specs naming drives not in `p` are ignored.
FlowProblem subproblem(const FlowProblem& p, std::span<const DemandSpec> drives);

}  // namespace usbsat::analysis::saturate
