#pragma once
/// The chart data of `usbsat report`, read from the documents `saturate --json` and `load --json` wrote
/// (report/schemas/saturate.schema.json, load.schema.json). Pure: a parsed document in, charts out.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "report/charts.hpp"

namespace usbsat::report {

/// Charts of a document, or why the document cannot be charted (`error` non-empty, `charts` empty).
template <class Chart>
struct ChartsOrError {
  std::vector<Chart> charts;
  std::string error;
};

/// One bar chart per saturate group: the drives alone, 2 at once and 4 at once (each phase's per-drive rates
/// and its aggregate), the model's predicted aggregate per phase, the plateau and the verdict sentence.
ChartsOrError<BarChart> saturate_charts(const nlohmann::json& doc);

/// One line chart per load phase: each target's per-second throughput (`series_mbs`).
ChartsOrError<LineChart> load_charts(const nlohmann::json& doc);

}  // namespace usbsat::report
