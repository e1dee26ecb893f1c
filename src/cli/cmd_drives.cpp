// usbsat drives: one entry per whole disk with where it is attached and how it runs.
#include "report/drives_view.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

Runner configure_drives(CLI::App& sub) {
  auto o = std::make_shared<ViewOptions>();
  bind_scan_options(sub, o->scan);
  return [o](const GlobalOptions& g) {
    // The text table reads at the Tree detail, as `topo` does (the umockdev test "the Tree scan prints the
    // same text as the Full scan" holds it to that); --json prints every field and reads Full.
    return run_view("drives", *o, g,
                    {&report::render_drives_text, &report::render_drives_json, topology::ScanDetail::Tree});
  };
}

}  // namespace usbsat::cli
