// usbsat topo: the whole USB topology as a tree (or JSON), from the PCIe link down to the disks.
#include "report/json_topology.hpp"
#include "report/tree.hpp"
#include "src/commands.hpp"
#include "src/topology_views.hpp"

namespace usbsat::cli {

int run_topo(const Invocation& inv) {
  return run_view(inv, {&report::render_topology_text, &report::render_topology_json});
}

}  // namespace usbsat::cli
