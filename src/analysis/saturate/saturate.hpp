#pragma once
/// `usbsat saturate` orchestration, separated from the command so it can be tested without I/O:
///   1. plan: which groups (shared nodes of the topology, or `--group` declarations), which drives, which
///      queue depth, which phases (each drive alone, then 2, then 4 / all at once);
///   2. measure: run every phase through an injected PhaseRunner (load::run_load in the binary, a fake in
///      tests), reusing a drive's solo baseline across groups, dropping a drive that fails, stopping cleanly
///      on a stop request (finished phases are kept);
///   3. attribute() each group and pass (attribution.hpp) and the conclusion text (verdict_text.hpp); the
///      report of it is built by the command (src/cli/saturate_input.hpp).
#include "src/analysis/common/group_spec.hpp"       // IWYU pragma: export
#include "src/analysis/saturate/measure.hpp"        // IWYU pragma: export
#include "src/analysis/saturate/saturate_plan.hpp"  // IWYU pragma: export
