#pragma once
/// Renderers for `usbsat saturate`: a text table per group and the JSON document of report/README.md
/// ("saturate --json"), plus the `--dry-run` plan and the live progress line. Pure and deterministic (G14);
/// the groups, passes and verdicts are the saturate analysis's own results (topology/results/saturate.hpp);
/// src/cli/saturate_input.cpp bundles them with the settings and adds each pass's conclusion text. MB/s is
/// 10^6 bytes per second.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load/runner.hpp"
#include "load/steady.hpp"
#include "report/load_report.hpp"
#include "report/style.hpp"
#include "topology/results/saturate.hpp"

namespace usbsat::report {

/// One pass over a group (the sequential pass, and optionally the 4 KiB random pass): attribute()'s verdict
/// on it as it is (topology/results/saturate.hpp). Without a judged phase (interrupted, failures) the pass
/// has no verdict, plateau, bottleneck or conclusion (results::judged()).
struct SaturatePass {
  results::SaturatePassSpec spec;        ///< pattern and block size
  results::SaturateGroupVerdict result;  ///< the phases and the verdict
  std::string conclusion;                ///< analysis::saturate::conclusion(result), "" without a verdict
  bool complete = true;                  ///< false when interrupted before all planned phases finished
};

/// A group as planned (its drives, queue depth and phases: topology/results/saturate.hpp) and what was
/// measured of it.
struct SaturateGroup : results::SaturateGroupPlan {
  std::vector<SaturatePass> passes;  ///< empty for a dry run
  std::vector<results::SaturateFailure> failures;
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
