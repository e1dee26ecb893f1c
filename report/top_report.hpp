#pragma once
/// `usbsat top`: one screen (or one JSON line) per sampling interval: each node's MB/s, capacity, utilisation
/// and whether it is the bottleneck now. The rows are analysis/top's rates as
/// they are (topology/results/top.hpp); the frame only adds when and which sample they are.
#include <optional>
#include <string>
#include <vector>

#include "report/style.hpp"
#include "topology/results/top.hpp"

namespace usbsat::report {

/// One interval: its rates and when they were taken.
struct TopFrame {
  std::string time;                     ///< ISO 8601 UTC ("" in pure tests)
  unsigned sample = 0;                  ///< 1, 2, ...
  double interval_s = 0;                ///< the measured interval
  std::vector<results::NodeRate> rows;  ///< already in display order (utilisation first)
};

/// The table: NODE, KIND, MB/S, READ, WRITE, CAPACITY, UTIL, DEVICES, with "<- bottleneck" rows marked, under
/// a header line. No escape sequences: the command clears the screen itself on a terminal.
std::string render_top_text(const TopFrame& f, const TextStyle& style = {});
/// One JSON object on one line (report/schemas/top-sample.schema.json).
std::string render_top_json(const TopFrame& f);

}  // namespace usbsat::report
