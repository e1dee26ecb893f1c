#pragma once
/// CPU time used so far by the calling thread and by the whole process: the load statistics' "cpu" lines.
/// cpu_time_posix.cpp (getrusage RUSAGE_THREAD / RUSAGE_SELF), win32/cpu_time.cpp (GetThreadTimes /
/// GetProcessTimes).
#include "load/stats.hpp"

namespace usbsat::load {

CpuTime thread_cpu();
CpuTime process_cpu();

}  // namespace usbsat::load
