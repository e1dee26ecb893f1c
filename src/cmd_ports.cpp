// usbsat ports: physical connectors grouped by controller, and which drives share a controller or hub.
#include "report/ports_view.hpp"
#include "src/commands.hpp"
#include "src/topology_views.hpp"

namespace usbsat::cli {

int run_ports(const Invocation& inv) {
  return run_view(inv, {&report::render_ports_text, &report::render_ports_json});
}

}  // namespace usbsat::cli
