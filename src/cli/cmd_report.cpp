// usbsat report: one self-contained HTML page: the topology picture (laid out by Graphviz), the
// doctor's findings, the predicted shares and, when given, the saturate bars and the load lines.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "report/chart_data.hpp"
#include "report/dot.hpp"
#include "report/graphviz_layout.hpp"
#include "report/html_report.hpp"
#include "src/cli/cmd_report.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/picture.hpp"
#include "src/cli/platform_text.hpp"
#include "topology/base/utc_time.hpp"

namespace usbsat::cli {
namespace {

/// The page's time: --time verbatim, else SOURCE_DATE_EPOCH (reproducible builds' convention), else now; UTC.
std::string page_time(const ReportOptions& o) {
  if (o.time) return *o.time;
  return topology::format_utc(topology::reproducible_now(), topology::UtcFormat::Readable);
}

/// The machine the page is about: --hostname verbatim, else the recorded machine's name (--from), else this
/// host's.
std::string page_host(const ReportOptions& o, const topology::ScanResult& scan) {
  if (o.hostname) return *o.hostname;
  if (scan.recorded_host) return *scan.recorded_host;
  return host_name().value_or("unknown host");
}

/// This process's command line ("usbsat report -o x.html"), from /proc/self/cmdline.
/// A path as the page names it: its file name, not where it lay on the machine that made the page (issue 21).
std::string file_name(const std::string& path) {
  const auto name = std::filesystem::path(path).filename().string();
  return name.empty() ? path : name;
}

/// This process's command line, every path in it (an argument or an `--option=value` with a `/`) reduced to
/// its file name.
std::string own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string out, arg;
  auto flush = [&] {
    if (arg.empty()) return;
    const auto eq = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
    const std::string value = eq == std::string::npos ? arg : arg.substr(eq + 1);
    if (value.find('/') != std::string::npos)
      arg = (eq == std::string::npos ? "" : arg.substr(0, eq + 1)) + file_name(value);
    out += (out.empty() ? "" : " ") + arg;
    arg.clear();
  };
  for (char c : ss.str()) {
    if (c == '\0')
      flush();
    else
      arg += c;
  }
  flush();
  return out.empty() ? "usbsat report" : out;
}

/// A JSON document from the regular file `path`, or the reason it is not one (a directory or a FIFO is
/// refused before it is opened: reading one would fail obscurely or block).
std::optional<nlohmann::json> read_json(const std::string& path, std::string& error) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    error = fmt::format("{} is not a regular file{}", path,
                        std::filesystem::is_directory(st) ? " (a directory)" : "");
    return std::nullopt;
  }
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  auto doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) {
    error = fmt::format("{} is not JSON", path);
    return std::nullopt;
  }
  return doc;
}

/// The charts of the result at `path` (`option` names it in errors); false with `error` set when it is not
/// readable JSON of the right kind.
template <class Chart>
bool read_charts(const std::string& path, std::string_view option,
                 report::ChartsOrError<Chart> (*charts_of)(const nlohmann::json&), std::vector<Chart>& out,
                 std::string& error) {
  const auto doc = read_json(path, error);
  if (!doc) {
    error = fmt::format("{}: {}", option, error);
    return false;
  }
  auto charts = charts_of(*doc);
  if (!charts.error.empty()) {
    error = fmt::format("{} {}: {}", option, path, charts.error);
    return false;
  }
  out = std::move(charts.charts);
  return true;
}

}  // namespace

void bind_report_options(CLI::App& sub, ReportOptions& o) {
  sub.add_option("-o,--output", o.output, "Write the page here (\"-\": stdout)")->capture_default_str();
  sub.add_option("--saturate", o.saturate,
                 "Chart this `usbsat saturate --json` result (alone, 2 and 4 at once)");
  sub.add_option("--load", o.load, "Chart this `usbsat load --json` result (throughput per second)");
  sub.add_option("--time", o.time, "The time printed on the page (default: SOURCE_DATE_EPOCH, else now)");
  sub.add_option(
      "--hostname", o.hostname,
      "The machine name printed on the page (default: this host's, or the recording's with --from)");
  sub.add_flag(
      "-a,--all", o.all_ports,
      "Draw everything: every empty port, every device and controller without a drive, as `topo --all`");
  bind_scan_options(sub, o.scan);
}

static int run_report(const ReportOptions& o, const GlobalOptions& global) {
  auto usage_error = [&](const std::string& message) { return fail(global, kExitUsage, "report", message); };
  if (global.json) return usage_error("report writes an HTML page; --json is not one of its outputs");
  // 1. The results to chart: read and checked before the scan, so a wrong path fails fast.
  report::HtmlReportInput in;
  std::vector<std::string> commands{own_command_line()};
  std::string error;
  if (!o.saturate.empty() &&
      !read_charts(o.saturate, "--saturate", &report::saturate_charts, in.saturate, error))
    return usage_error(error);
  if (!o.load.empty() && !read_charts(o.load, "--load", &report::load_charts, in.load, error))
    return usage_error(error);
  in.saturate_source = o.saturate.empty() ? "" : file_name(o.saturate);
  in.load_source = o.load.empty() ? "" : file_name(o.load);

  // 2. The topology (the same scan as topo/drives/ports), the doctor and the prediction, then the picture.
  const auto scan_result = scan(o.scan, global);
  const auto& t = scan_result.topology;
  if (auto notice = no_usb_notice(t, "report")) {
    std::fputs(notice->c_str(), stderr);
    in.notice = "No USB host controller found on this system: nothing to draw but the disks.";
  }
  const auto facts = gather_picture_facts(scan_result, read_history_context(global, scan_result));
  const auto graph = topology_picture(t, facts, o.all_ports);
  if (graph.nodes.size() > kMaxPictureNodes) {
    in.notice = fmt::format(
        "The picture is left out: its {} nodes are more than Graphviz lays out in seconds (at most {}). "
        "`usbsat topo --dot` writes the whole graph for dot to draw.",
        graph.nodes.size(), kMaxPictureNodes);
  } else if (!graph.nodes.empty()) {
    try {
      in.topology_svg = report::inline_svg(report::layout_svg(report::render_dot(graph)));
      in.finding_nodes = graph.finding_nodes;
    } catch (const report::LayoutError& e) {
      return fail(global, kExitEnvironment, "report", e.what(), scan_result.diagnostics);
    }
  }
  in.meta = {USBSAT_VERSION, page_host(o, scan_result), page_time(o), std::move(commands)};
  in.controllers = t.controllers().size();
  in.drives = facts.drives_checked;
  in.findings = facts.findings;
  in.predict = &facts.predict;
  in.diagnostics = scan_result.diagnostics;
  const std::string page = report::render_html(in);

  // 3. The page, by the -o rule (output_file.hpp).
  write_output(o.output, page);
  if (o.output != "-" && !global.quiet)
    std::fprintf(stderr, "usbsat report: wrote %s (%zu bytes)\n", o.output.c_str(), page.size());
  print_diagnostics(stderr, scan_result.diagnostics, global);
  return exit_code_for(scan_result.diagnostics);
}

Runner configure_report(CLI::App& sub) {
  return bind_command<ReportOptions>(sub, &bind_report_options, &run_report);
}

}  // namespace usbsat::cli
