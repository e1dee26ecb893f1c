// usbsat topo: the whole USB topology as a tree (or JSON), from the PCIe link down to the disks.
#include <CLI/CLI.hpp>

#include "report/json_topology.hpp"
#include "report/tree.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

Runner configure_topo(CLI::App& sub) {
  auto o = std::make_shared<ViewOptions>();
  sub.add_flag("-a,--all", o->all_devices, "List every empty port instead of a per-hub summary");
  bind_scan_options(sub, o->scan);
  return [o](const GlobalOptions& g) {
    // The text tree needs only the Tree detail of the scan (fewer sysfs reads); --json gets everything.
    return run_view("topo", *o, g,
                    {&report::render_topology_text, &report::render_topology_json, topology::ScanDetail::Tree});
  };
}

}  // namespace usbsat::cli
