#pragma once
/// `usbsat saturate`'s results, defined once (issue 40): the planned groups, the passes, the drives that
/// failed and attribute()'s verdict on each group and pass. Header-only, below both src/analysis and report:
/// analysis/saturate produces them and report/saturate_report.hpp renders them as they are, with no mirror
/// type or copy code in between (shared/STYLE.md G1).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/job.hpp"
#include "topology/base/string_table.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/node.hpp"

namespace usbsat::results {

/// A group's (or one phase's) verdict: its JSON words are "no_contention", "saturated", "unexplained".
enum class SaturateVerdict : std::uint8_t { NoContention, Saturated, Unexplained };

inline constexpr topology::StringTable<SaturateVerdict, 3> kSaturateVerdictNames{{{
    {SaturateVerdict::NoContention, "no_contention"},
    {SaturateVerdict::Saturated, "saturated"},
    {SaturateVerdict::Unexplained, "unexplained"},
}}};
constexpr std::string_view to_string(SaturateVerdict v) {
  return kSaturateVerdictNames.name(v, "no_contention");
}

/// How sure the verdict is: "low", "medium", "high".
enum class SaturateConfidence : std::uint8_t { Low, Medium, High };

inline constexpr topology::StringTable<SaturateConfidence, 3> kSaturateConfidenceNames{{{
    {SaturateConfidence::Low, "low"},
    {SaturateConfidence::Medium, "medium"},
    {SaturateConfidence::High, "high"},
}}};
constexpr std::string_view to_string(SaturateConfidence c) {
  return kSaturateConfidenceNames.name(c, "low");
}

/// The relative tolerance of a verdict when there are no repeats to measure the noise.
inline constexpr double kSaturateDefaultTolerance = 0.07;

/// A drive of a planned group.
struct SaturatePlannedDrive {
  std::string dev;    ///< "sdb"
  std::string path;   ///< "/dev/sdb"
  std::string where;  ///< "port 2", "" without topology
  topology::StorageProtocol protocol = topology::StorageProtocol::None;
};

/// A group of drives that share a node (or a `--group` declaration) as the planner set it up.
struct SaturateGroupPlan {
  std::string name;
  std::string node_kind;  ///< to_string(NodeKind), or "declared"
  std::string node_id;
  std::string node_label;  ///< "controller 0000:03:00.0 (ASM1042)", "group a"
  std::optional<topology::Bandwidth> declared_capacity;
  std::vector<std::string> same_drives_as;  ///< other nodes with exactly these drives below them
  std::vector<SaturatePlannedDrive> drives;
  unsigned qd = 1;
  std::string qd_reason;         ///< why this queue depth ("UAS", "BOT", "--qd", ...)
  std::vector<unsigned> levels;  ///< the planned phases: 1 (each alone), 2, 4, ...
};

/// One pass over every group: the sequential pass and optionally the random one (each at the group's queue
/// depth).
struct SaturatePassSpec {
  load::Pattern pattern = load::Pattern::Read;
  std::uint32_t block_size = 128 * 1024;
};

/// A drive whose run failed: which drive, in which pass and phase, and the error.
struct SaturateFailure {
  std::string dev;   ///< "sdb"
  std::string pass;  ///< pattern of the pass
  unsigned n = 0;    ///< the phase it failed in
  std::string message;
};

/// A drive of the group and where it is plugged in, for the conclusion text ("port 3", may be empty).
struct SaturateGroupDrive {
  std::string dev;
  std::string where;
};

/// One drive's figures in one phase.
struct SaturateDriveRate {
  std::string dev;
  double mbs = 0;                       ///< mean over repeats
  std::optional<double> solo_mbs;       ///< its solo baseline
  std::optional<double> predicted_mbs;  ///< its fair share in the model's prediction for this phase
};

/// One phase: `n` drives at once (n == 1: every drive alone, its solo baseline).
struct SaturatePhase {
  unsigned n = 0;
  std::vector<SaturateDriveRate> drives;
  double aggregate_mbs = 0;  ///< mean over repeats of the per-run sum
  double spread = 0;         ///< (max - min) / mean of the per-run aggregates; 0 with one run
  unsigned repeats = 0;
  /// Under the settle rule (load/steady.hpp): every run of every drive settled (nullopt: fixed-length).
  std::optional<bool> settled;
  std::optional<double> settled_after_s;  ///< the longest run's time to settle; nullopt unless settled
  std::optional<double> window_spread;    ///< the largest in-window spread of any drive and run (fraction)
  std::optional<double> solo_sum_mbs;     ///< nullopt when a drive has no solo baseline
  std::optional<double> efficiency;       ///< aggregate / solo sum
  std::optional<double> predicted_aggregate_mbs;
  std::optional<SaturateVerdict> verdict;  ///< n >= 2 with a solo sum only
};

/// What the verdict names as the limit.
struct SaturateLink {
  std::string node;                            ///< node id ("0000:03:00.0"), or the LCA's description
  std::optional<topology::ResourceKind> kind;  ///< nullopt when stated as the lowest common ancestor
  std::optional<double> capacity_mbs;
  std::string label;                    ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042)"
  bool lowest_common_ancestor = false;  ///< no link matched: this is where the shared limit is, at or above
  bool capacity_measured = false;  ///< a --group without a declared capacity: capacity_mbs is the plateau
};

/// The verdict on one group in one pass (analysis/saturate/attribution.hpp has the rules).
struct SaturateGroupVerdict {
  std::string name;
  std::vector<SaturateGroupDrive> drives;
  std::vector<SaturatePhase> phases;  ///< in input order
  SaturateVerdict verdict = SaturateVerdict::NoContention;
  /// Index into `phases` of the phase the verdict rests on: the largest n showing contention, else the
  /// largest judged phase (the later one of equal n).
  std::optional<std::size_t> deciding_phase;
  std::optional<double> plateau_mbs;  ///< aggregate of the deciding phase when there is contention
  std::optional<double> plateau_solo_sum_mbs;
  std::optional<SaturateLink> bottleneck;
  double tolerance = kSaturateDefaultTolerance;
  SaturateConfidence confidence = SaturateConfidence::Low;
  std::vector<std::string> notes;  ///< model disagreements and missing data, one sentence each
};

/// Some phase of the pass was judged (n >= 2 with a solo sum): the pass has a verdict at all.
inline bool judged(const SaturateGroupVerdict& v) {
  for (const auto& p : v.phases)
    if (p.verdict) return true;
  return false;
}

}  // namespace usbsat::results
