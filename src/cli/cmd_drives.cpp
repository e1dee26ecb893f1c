// usbsat drives: one entry per whole disk with where it is attached and how it runs.
#include "report/drives_view.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

Runner configure_drives(CLI::App& sub) {
  auto o = std::make_shared<ViewOptions>();
  bind_scan_options(sub, o->scan);
  return [o](const GlobalOptions& g) {
    // The text table reads at the Tree detail, as `topo` does, and --json at the Drives detail (the umockdev
    // tests "the Tree scan prints the same topo and drives text as the Full scan" and "the Drives scan prints
    // the same drives --json as the Full scan" hold them to that).
    return run_view("drives", *o, g,
                    {&report::render_drives_text, &report::render_drives_json, topology::ScanDetail::Tree,
                     topology::ScanDetail::Drives});
  };
}

}  // namespace usbsat::cli
