#pragma once
/// `usbsat top`: one screen (or one JSON line) per sampling interval: each node's MB/s, capacity, utilisation
/// and whether it is the bottleneck now. src/cli/cmd_top.cpp fills the input from analysis/top (G15).
#include <optional>
#include <string>
#include <vector>

#include "report/style.hpp"

namespace usbsat::report {

struct TopRow {
  std::string id, kind, label;
  std::vector<std::string> devices;
  double mbs = 0, read_mbs = 0, write_mbs = 0;
  std::optional<double> capacity_mbs;
  std::optional<double> utilisation;  ///< fraction, 0.93 = 93%
  bool bottleneck = false;
  std::vector<std::string> missing;  ///< devices whose counters could not be read
};

struct TopFrame {
  std::string time;          ///< ISO 8601 UTC ("" in pure tests)
  unsigned sample = 0;       ///< 1, 2, ...
  double interval_s = 0;     ///< the measured interval
  std::vector<TopRow> rows;  ///< already in display order (utilisation first)
};

/// The table: NODE, KIND, MB/S, READ, WRITE, CAPACITY, UTIL, DEVICES, with "<- bottleneck" rows marked, under
/// a header line. No escape sequences: the command clears the screen itself on a terminal.
std::string render_top_text(const TopFrame& f, const TextStyle& style = {});
/// One JSON object on one line (report/schemas/top-sample.schema.json).
std::string render_top_json(const TopFrame& f);

}  // namespace usbsat::report
