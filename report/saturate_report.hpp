#pragma once
/// Renderers for `usbsat saturate`: a text table per group and the JSON document of report/README.md
/// ("saturate --json"), plus the `--dry-run` plan and the live progress line. Pure and deterministic (G14);
/// src/ fills the input (G15). MB/s is 10^6 bytes per second.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load/runner.hpp"
#include "load/steady.hpp"
#include "report/load_report.hpp"
#include "report/style.hpp"

namespace usbsat::report {

/// One drive's figures in one phase (means over repeats).
struct SaturateDriveRate {
  std::string dev;
  double mbs = 0;
  std::optional<double> predicted_mbs;  ///< its fair share in the model
};

/// One phase: `n` drives at once (n == 1: every drive alone, its solo baseline).
struct SaturatePhaseRow {
  unsigned n = 1;
  std::vector<SaturateDriveRate> per_drive;
  double aggregate_mbs = 0;  ///< n >= 2: the sum of the drives' rates (mean over repeats)
  std::optional<double> solo_sum_mbs;
  std::optional<double> efficiency;  ///< aggregate / sum of the same drives' solo rates
  std::optional<double> predicted_aggregate_mbs;
  double spread = 0;  ///< (max - min) / mean of the per-run aggregates
  unsigned repeats = 0;
  std::optional<std::string> verdict;  ///< n >= 2: "no_contention" | "saturated" | "unexplained"
  /// Under the settle rule (load/steady.hpp): every run settled; nullopt for fixed-length phases.
  std::optional<bool> settled;
  std::optional<double> settled_after_s;  ///< the longest run's time to settle, ramp included
  std::optional<double> window_spread;    ///< largest sample distance from its window's mean (fraction)
};

/// What the verdict names as the limit.
struct SaturateBottleneck {
  std::string node;  ///< node id ("0000:03:00.0", a --group's NAME)
  std::string kind;  ///< resource kind ("pcie_link", "declared"), "lowest_common_ancestor"
  std::optional<double> capacity_mbs;
  std::string label;  ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042)"
};

/// One pass over a group (the sequential pass, and optionally the 4 KiB random pass).
struct SaturatePass {
  std::string pattern;  ///< "read", "randread"
  std::uint32_t bs = 0;
  unsigned qd = 1;
  std::vector<SaturatePhaseRow> phases;
  std::optional<std::string> verdict;  ///< nullopt: no concurrent phase finished (interrupted, failures)
  std::optional<double> plateau_mbs;
  std::optional<SaturateBottleneck> bottleneck;
  std::string conclusion;  ///< one sentence a user can act on
  double tolerance = 0;
  std::string confidence;  ///< "low" | "medium" | "high"
  std::vector<std::string> notes;
  bool complete = true;  ///< false when interrupted before all planned phases finished
};

/// A drive of a group.
struct SaturateDrive {
  std::string dev;    ///< "sdb", "loop2"
  std::string path;   ///< "/dev/sdb"
  std::string where;  ///< "port 2 of hub 2-1", "" without topology
};

/// A drive that failed in some phase; its numbers from that phase are not used.
struct SaturateFailure {
  std::string dev;
  std::string pass;  ///< pattern of the pass
  unsigned n = 0;    ///< the phase it failed in
  std::string message;
};

struct SaturateGroup {
  std::string name;
  std::string node_kind;  ///< "hub", "root_hub", "controller", "pci", "declared"
  std::string node_id;
  std::string node_label;  ///< "controller 0000:03:00.0 (ASM1042)", "group a"
  std::optional<double> declared_capacity_mbs;
  std::vector<std::string> same_drives_as;  ///< other nodes with exactly these drives below them
  std::vector<SaturateDrive> drives;
  std::string qd_reason;             ///< why this queue depth ("UAS", "BOT", "--qd", ...)
  std::vector<unsigned> levels;      ///< the planned phases: 1 (each alone), 2, 4, ...
  std::vector<SaturatePass> passes;  ///< empty for a dry run
  std::vector<SaturateFailure> failures;
};

struct SaturateReport {
  std::string engine;
  double runtime_s = 0;
  double ramp_s = 0;
  unsigned repeat = 1;
  std::optional<load::SteadyRule> steady;  ///< phases end when settled (runtime_s the most); nullopt: fixed
  bool dry_run = false;
  bool interrupted = false;
  std::vector<SaturateGroup> groups;
  std::vector<LoadDiagnostic> diagnostics;
  TextStyle style{};  ///< text: colour the verdict (no contention green, saturated yellow, unexplained red)
};

/// Human output: one table per group and pass (drives × phases), verdict and conclusion.
std::string render_saturate_text(const SaturateReport& r);
/// `{"groups":[{"name","node":{"kind","id"},"drives","phases":[{"n","per_drive_mbs","aggregate_mbs",
/// "efficiency","predicted_aggregate_mbs"}],"verdict","plateau_mbs","bottleneck":{"node","kind",
/// "capacity_mbs"}}]}` plus the extra keys documented in report/README.md.
std::string render_saturate_json(const SaturateReport& r);
/// `--dry-run`: the groups and the phases that would run (text, or JSON when `json`).
std::string render_saturate_plan(const SaturateReport& r, bool json);

/// "[a 5/6] 2 at once 0.5/6.0 s ramp, ~12 s left | loop2 20.1 | loop3 19.9 | total 40.0 MB/s": group, step
/// of the whole run, what runs, elapsed/total of this phase (ramp included), the run's remaining time
/// (later steps assumed as long as this one), then each drive's current rate.
std::string format_saturate_progress(std::string_view group, std::string_view step, std::size_t index,
                                     std::size_t count, const load::Snapshot& s, std::int64_t now_ns);

}  // namespace usbsat::report
