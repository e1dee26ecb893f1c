#pragma once
/// `usbsat report`: one self-contained HTML page (inline CSS and SVG, no script, no external resource) with
/// the topology picture, the doctor's findings, the `plan --predict` table and, when given, the saturate and
/// load charts. Pure: src/cli/cmd_report.cpp gathers everything (and lays the picture out with Graphviz).
#include <span>
#include <string>
#include <vector>

#include "report/charts.hpp"
#include "report/finding.hpp"
#include "report/plan_report.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::report {

/// Who made the page, where and when: the page's footer facts. src/ fills them (time and host can be
/// overridden for reproducible pages).
struct ReportMeta {
  std::string version;                ///< "0.1.0"
  std::string host;                   ///< machine name
  std::string time;                   ///< "2026-12-01 20:57:47 UTC"
  std::vector<std::string> commands;  ///< the command lines behind the page
};

struct HtmlReportInput {
  ReportMeta meta;
  std::string topology_svg;  ///< the picture (inline_svg() of the Graphviz output); "" when nothing to draw
  std::string notice;        ///< shown above the picture, or instead of it (no USB controller, too large)
  std::size_t controllers = 0, drives = 0;  ///< counts for the summary line
  std::span<const Finding> findings;
  std::vector<std::string> finding_nodes;  ///< per finding: the picture node showing it ("" or absent: none)
  const PredictInput* predict =
      nullptr;                     ///< nullptr or no drives: the section says there is nothing to predict
  std::vector<BarChart> saturate;  ///< one per saturate group
  std::string saturate_source;     ///< the file name of the saturate result ("" when none)
  std::vector<LineChart> load;     ///< one per load phase
  std::string load_source;
  std::span<const topology::Diagnostic> diagnostics;  ///< of the scan
};

/// The whole page, `<!DOCTYPE html>` to `</html>`.
std::string render_html(const HtmlReportInput& in);

}  // namespace usbsat::report
