// usbsat ports: connectors grouped by controller, occupied or empty.
#include "report/ports_view.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

Runner configure_ports(CLI::App& sub) {
  auto o = std::make_shared<ViewOptions>();
  bind_scan_options(sub, o->scan);
  return [o](const GlobalOptions& g) {
    return run_view("ports", *o, g, {&report::render_ports_text, &report::render_ports_json});
  };
}

}  // namespace usbsat::cli
