#pragma once
/// The CPUs the process may run on, and keeping the calling thread on one of them: the runner keeps each load
/// worker on one CPU (runner.cpp says why). cpu_affinity_posix.cpp (sched_getaffinity / sched_setaffinity),
/// win32/cpu_affinity.cpp (GetProcessAffinityMask / SetThreadAffinityMask).
#include <cstddef>
#include <optional>
#include <vector>

namespace usbsat::load {

/// The CPUs the calling thread may run on (what `taskset` or a cgroup's cpuset left), ascending; empty when
/// the platform does not say.
std::vector<unsigned> allowed_cpus();

/// Keep the calling thread on `cpu`; false when the platform refuses (the thread then runs where it may).
bool pin_current_thread(unsigned cpu);

/// The CPU for worker `index` of a phase: the allowed CPUs in turn, round again when there are more workers
/// than CPUs; nullopt when none is known.
inline std::optional<unsigned> worker_cpu(const std::vector<unsigned>& cpus, std::size_t index) {
  if (cpus.empty()) return std::nullopt;
  return cpus[index % cpus.size()];
}

}  // namespace usbsat::load
