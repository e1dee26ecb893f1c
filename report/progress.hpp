#pragma once
/// The live progress line of `usbsat load`: a pure function of a runner snapshot and the current time
/// (ninja FormatProgressStatus takes time as a parameter for the same reason).
#include <cstdint>
#include <string>

#include "load/runner.hpp"

namespace usbsat::report {

/// "[phase 2/4] 3.2/11.0 s ramp | loop1 40.1 MB/s | loop2 39.8 MB/s" — phase, elapsed/total (ramp
/// included), "ramp" while ramping, then the current rate of each target (basename of its label).
std::string format_progress(const load::Snapshot& s, std::int64_t now_ns);

}  // namespace usbsat::report
