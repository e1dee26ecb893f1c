#pragma once
/// Renderers for `usbsat load` results: a human table (fmt) and JSON (keys explained in load/README.md).
/// Pure and deterministic: same input, same bytes (G14). MB/s is 10^6 bytes per second.
#include <optional>
#include <string>
#include <vector>

#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/steady.hpp"

namespace usbsat::report {

/// A problem with one target (could not open, refused, degraded) to show next to the results.
struct LoadDiagnostic {
  std::string severity;  ///< "info" | "warning" | "error"
  std::string target;
  std::string message;
};

/// What the load renderers consume; src/ fills it.
struct LoadReportInput {
  std::string engine;  ///< engine actually used
  load::JobSpec job;
  std::vector<std::string> targets;  ///< labels, indexed like load::TargetResult::target
  const load::RunResult* run = nullptr;
  std::vector<LoadDiagnostic> diagnostics;
  std::optional<load::SteadyRule> steady;  ///< `--steady`: phases end when settled (job.runtime the most)
};

std::string render_load_text(const LoadReportInput& in);
std::string render_load_json(const LoadReportInput& in);

}  // namespace usbsat::report
