#pragma once
/// Charts as inline SVG, written by usbsat (no script, no external resource): the saturate 1/2/4 bars and the
/// load throughput lines. chart_data.hpp turns the `saturate --json` / `load --json` documents into these
/// structs; the renderers here are pure and golden-tested.
#include <optional>
#include <string>
#include <vector>

namespace usbsat::report {

struct ChartBar {
  std::string label;  ///< "sdb", "aggregate"
  double value = 0;   ///< MB/s
  bool aggregate = false;
  bool operator==(const ChartBar&) const = default;
};

/// One phase of a saturate group: the drives alone, 2 at once or 4 at once.
struct ChartBarGroup {
  std::string label;                ///< "1 alone", "2 at once"
  std::vector<ChartBar> bars;       ///< the drives, then the aggregate
  std::optional<double> predicted;  ///< the model's aggregate for this phase (MB/s)
  bool operator==(const ChartBarGroup&) const = default;
};

/// One saturate group.
struct BarChart {
  std::string title;  ///< "controller 0000:03:00.0 (ASM1042): sdb, sdc"
  std::vector<ChartBarGroup> groups;
  std::optional<double> plateau;  ///< the measured plateau (MB/s): a horizontal line
  std::string verdict;   ///< the verdict sentence (`conclusion`): the page's caption, wrapping as text
  double scale_max = 0;  ///< the largest value of all charts of the run: one MB/s scale for all (0: own)
  bool operator==(const BarChart&) const = default;
};

/// The largest value a bar chart draws: bars, predictions, plateau (MB/s).
double chart_max(const BarChart& c);

/// One target's throughput over time.
struct LineSeries {
  std::string label;           ///< "/dev/sdb"
  std::vector<double> values;  ///< MB/s, one per second
  bool operator==(const LineSeries&) const = default;
};

/// One load phase: its targets' per-second throughput.
struct LineChart {
  std::string title;  ///< "phase 1: sdb sdc"
  std::vector<LineSeries> series;
  bool operator==(const LineChart&) const = default;
};

/// `<svg ...>...</svg>`: grouped bars (drives light, aggregate dark) with the value on top, a dashed marker
/// for the model's prediction per phase, a red dashed plateau line (its value in the legend, clear of the
/// bars' labels), axis in MB/s up to scale_max, legend. The verdict is not drawn: the page prints it below as
/// text that wraps.
std::string render_bar_chart_svg(const BarChart& c);
/// `<svg ...>...</svg>`: one polyline per series over seconds, axis in MB/s, legend.
std::string render_line_chart_svg(const LineChart& c);
/// The top of a value axis: `max` rounded up to 1, 2, 2.5 or 5 times a power of ten (at least 1).
double nice_ceiling(double max);

}  // namespace usbsat::report
