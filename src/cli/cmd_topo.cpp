// usbsat topo: the whole USB topology as a tree (or JSON, or Graphviz DOT), from the PCIe link down to the
// disks.
#include <CLI/CLI.hpp>

#include "report/dot.hpp"
#include "report/json_topology.hpp"
#include "report/tree.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/picture.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {
namespace {

/// topo --dot: the picture of `usbsat report` (findings and predicted shares included) as DOT text.
int run_dot(const ViewOptions& o, const GlobalOptions& g) {
  if (g.json) return fail(g, kExitUsage, "topo", "--dot and --json are two different outputs; choose one");
  const auto scan_result = scan(o.scan, g);
  if (auto notice = no_usb_notice(scan_result.topology, "topo --dot")) std::fputs(notice->c_str(), stderr);
  const auto facts = gather_picture_facts(scan_result, read_history_context(g, scan_result));
  const std::string dot = report::render_dot(topology_picture(scan_result.topology, facts, o.all_devices));
  std::fwrite(dot.data(), 1, dot.size(), stdout);
  std::fflush(stdout);
  print_diagnostics(stderr, scan_result.diagnostics, g);
  return exit_code_for(scan_result.diagnostics);
}

}  // namespace

Runner configure_topo(CLI::App& sub) {
  auto o = std::make_shared<ViewOptions>();
  auto dot = std::make_shared<bool>(false);
  sub.add_flag("-a,--all", o->all_devices, "List every empty port instead of a per-hub summary");
  sub.add_flag("--dot", *dot, "Graphviz DOT of the picture `usbsat report` draws (render: dot -Tsvg)");
  bind_scan_options(sub, o->scan);
  return [o, dot](const GlobalOptions& g) {
    if (*dot) return run_dot(*o, g);
    // The text tree needs only the Tree detail of the scan (fewer sysfs reads); --json gets everything.
    return run_view(
        "topo", *o, g,
        {&report::render_topology_text, &report::render_topology_json, topology::ScanDetail::Tree});
  };
}

}  // namespace usbsat::cli
