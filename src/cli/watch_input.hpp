#pragma once
/// A watch verdict as report/ consumes it: the one conversion of the watch analysis into report input.
#include "report/watch_report.hpp"
#include "src/analysis/watch/verdict.hpp"

namespace usbsat::cli {

/// The event `v` as the renderers show it (`time` is left for the command to set).
report::WatchEvent to_report(const analysis::watch::Verdict& v);

}  // namespace usbsat::cli
