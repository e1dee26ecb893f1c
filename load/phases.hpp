#pragma once
/// Concurrency phases: which targets run together in each phase of a run.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace usbsat::load {

/// One phase: indices into the run's target list, in order.
using PhaseTargets = std::vector<std::size_t>;

/// Plan the phases for `--concurrency` levels over `n` targets: level 1 runs each target alone (one phase
/// per target, so every drive has a solo baseline); a level k > 1 runs the first min(k, n) targets at once.
/// Levels that would repeat an earlier subset are dropped. No levels → one phase with all targets.
/// Levels of 0 are rejected by check_levels() first.
std::vector<PhaseTargets> plan_phases(std::size_t n, std::span<const unsigned> levels);

/// The usage error for `--concurrency` levels that would run nothing (a 0), nullopt when all are ≥ 1. Pure.
std::optional<std::string> check_levels(std::span<const unsigned> levels);

}  // namespace usbsat::load
