#pragma once
/// `usbsat saturate` orchestration, separated from the command so it can be tested without I/O:
///   1. plan: which groups (shared nodes of the topology, or `--group` declarations), which drives, which
///      queue depth, which phases (each drive alone, then 2, then 4 / all at once);
///   2. measure: run every phase through an injected PhaseRunner (load::run_load in the binary, a fake in
///      tests), reusing a drive's solo baseline across groups, dropping a drive that fails, stopping cleanly
///      on a stop request (finished phases are kept);
///   3. report: attribute() each group and pass, conclusion text, into report::SaturateReport.
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "load/job.hpp"
#include "load/runner.hpp"
#include "report/saturate_report.hpp"
#include "src/analysis/saturate/attribution.hpp"
#include "src/analysis/model/grouping.hpp"
#include "topology/bandwidth.hpp"
#include "topology/topology.hpp"

namespace usbsat::analysis::saturate {

/// `--group NAME=/dev/a,/dev/b[@CAP]`.
struct GroupSpec {
  std::string name;
  std::vector<std::string> paths;
  std::optional<topology::Bandwidth> capacity;
  bool operator==(const GroupSpec&) const = default;
};
/// The capacities a `--group` may declare, bytes/s: 1 KB/s to 1000 GB/s (anything else is a typo).
inline constexpr double kMinGroupCapacity = 1e3;
inline constexpr double kMaxGroupCapacity = 1e12;

/// Parse one `--group` value; nullopt when the name is empty, fewer than two paths are given, a path is
/// empty or repeated, or CAP is not a rate within [kMinGroupCapacity, kMaxGroupCapacity]. Then `*error`
/// (when given) says which, in one sentence.
std::optional<GroupSpec> parse_group_spec(std::string_view s, std::string* error = nullptr);

/// The usage error for a set of groups that cannot all be measured as given (two groups with one name),
/// nullopt when they can. Pure.
std::optional<std::string> check_group_specs(std::span<const GroupSpec> specs);

/// Queue depth by storage protocol: BOT carries one command at a time (QD1); UAS queues (QD32); anything
/// else (unknown protocol, a --group device) gets the deep queue too, so the device decides.
inline constexpr unsigned kBotQueueDepth = 1;
inline constexpr unsigned kQueuedQueueDepth = 32;
unsigned protocol_queue_depth(topology::StorageProtocol p);

/// The concurrency levels of a group of `n` drives: 1 (each alone), 2, 4, and n when n > 4; only levels
/// <= n. Fewer than two drives: {1}.
std::vector<unsigned> phase_levels(std::size_t n);

/// "/dev/sdb" -> "sdb"; other paths are kept as given.
std::string dev_name(std::string_view path);

struct PlannedDrive {
  std::string dev;    ///< "sdb"
  std::string path;   ///< "/dev/sdb"
  std::string where;  ///< "port 2", "" without topology
  topology::StorageProtocol protocol = topology::StorageProtocol::None;
};

struct PlannedGroup {
  std::string name;
  std::string node_kind;  ///< to_string(NodeKind), or "declared"
  std::string node_id;
  std::string node_label;
  std::optional<model::DriveGroup> topology_group;  ///< set for groups found in the topology
  std::optional<topology::Bandwidth> declared_capacity;
  std::vector<PlannedDrive> drives;
  unsigned qd = 1;
  std::string qd_reason;
  std::vector<unsigned> levels;
};

/// One pass over every group: the sequential pass and optionally the random one.
struct PassSpec {
  load::Pattern pattern = load::Pattern::Read;
  std::uint32_t block_size = 128 * 1024;
  std::optional<unsigned> qd;  ///< overrides the group's queue depth (the random pass: --qd or the group's)
};

struct SaturatePlan {
  std::vector<PlannedGroup> groups;
  std::vector<std::string> notes;  ///< for stderr: drives left out and why
};

/// Groups of `--group` declarations. Queue depth: `qd` or kQueuedQueueDepth.
SaturatePlan plan_declared(std::span<const GroupSpec> specs, std::optional<unsigned> qd);

/// Groups of the USB drives of `t` (only those named in `only`, "sdb" or "/dev/sdb", when not empty) by
/// shared_node_groups(). Queue depth: `qd`, else the deepest protocol depth among the group's drives (a BOT
/// drive next to a UAS one still gets the same load: the kernel holds what the device cannot take).
SaturatePlan plan_topology(const topology::Topology& t, std::span<const std::string> only,
                           std::optional<unsigned> qd,
                           const topology::CapacityModel& m = topology::nominal_model());


// ---- measurement -----------------------------------------------------------------------------------

/// Runs one load::RunConfig over some targets (load::run_load in the binary).
using PhaseRunner = std::function<load::RunResult(const std::vector<load::RunTarget>&, const load::RunConfig&,
                                                  std::stop_token, const load::SnapshotFn&)>;

/// Which step is running, for progress output.
struct StepInfo {
  std::string group;
  std::string pass;       ///< pattern name
  std::string what;       ///< "sdb alone", "2 at once"
  std::size_t index = 0;  ///< 0-based step over the whole run
  std::size_t count = 0;  ///< planned steps (an upper bound when drives fail)
};
using StepSnapshotFn = std::function<void(const StepInfo&, const load::Snapshot&)>;

struct SaturateSettings {
  load::JobSpec job;  ///< runtime, ramp, seed (pattern, block size and queue depth come from passes/groups)
  std::string engine = "uring";
  unsigned repeat = 1;
  std::vector<PassSpec> passes{PassSpec{}};
};

/// The measurement of one group in one pass.
struct GroupPassMeasurement {
  std::vector<PhaseMeasurement> phases;  ///< n == 1 first (every healthy drive), then the concurrent ones
  bool complete = true;
  unsigned qd = 1;
};

struct SaturateMeasurement {
  /// [group][pass], in plan and settings order; groups never reached (interrupted) have empty phases.
  std::vector<std::vector<GroupPassMeasurement>> groups;
  /// failures per group (a drive that failed in a solo phase is reported in every group it belongs to).
  std::vector<std::vector<report::SaturateFailure>> failures;
  bool interrupted = false;
};

/// Measure every group of `plan`. `targets` maps a drive's path to its opened target; drives without one
/// are skipped (they could not be opened). Solo baselines are measured once per drive and pass and reused
/// by every group containing the drive. A concurrent phase runs the first n healthy drives of the group; a
/// drive that fails is recorded and left out of later phases, and the failing run's numbers are not used.
SaturateMeasurement measure(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
                            const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
                            const StepSnapshotFn& on_snapshot = {});

/// Planned steps of a run (for progress): solos (first occurrence of each drive) + concurrent levels, per
/// pass, times repeat.
std::size_t planned_steps(const SaturatePlan& plan, const SaturateSettings& settings);

// ---- report --------------------------------------------------------------------------------------------

/// The report of a plan (dry run: no passes) or of a measurement (`m` set). `t` is the topology the plan
/// came from (nullptr for declared groups). `tolerance` forces attribute()'s tolerance.
report::SaturateReport build_report(const SaturatePlan& plan, const SaturateSettings& settings,
                                    const SaturateMeasurement* m, const topology::Topology* t,
                                    std::optional<double> tolerance = std::nullopt);

}  // namespace usbsat::analysis::saturate
