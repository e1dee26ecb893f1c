// usbsat drives: one entry per whole-disk block device — where it is attached and how it runs.
#include "report/drives_view.hpp"
#include "src/commands.hpp"
#include "src/topology_views.hpp"

namespace usbsat::cli {

int run_drives(const Invocation& inv) {
  return run_view(inv, {&report::render_drives_text, &report::render_drives_json});
}

}  // namespace usbsat::cli
