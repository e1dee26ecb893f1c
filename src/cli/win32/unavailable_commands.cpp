// The commands usbsat.exe registers but cannot run yet: each one's configure function, in place of its
// cmd_<name>.cpp (not compiled on Windows, src/cli/CMakeLists.txt). The command stays in `usbsat --help` and
// the completions; running it, with any arguments, prints why and exits 3 (kExitEnvironment: this system
// cannot do it), with the --json error document under --json.
#include <CLI/CLI.hpp>

#include <string>

#include "src/cli/command.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"

namespace usbsat::cli {
namespace {

Runner refuse(CLI::App& sub, std::string name, std::string why) {
  // The Linux options are not bound here: keep whatever is given (not passed up to usbsat's own options,
  // which would call it a usage error) and refuse. Global flags go before the command (`usbsat --json
  // watch`).
  sub.fallthrough(false);
  sub.allow_extras();
  return [name = std::move(name), why = std::move(why)](const GlobalOptions& g) {
    return fail(g, kExitEnvironment, name, "not available on Windows yet: " + why);
  };
}

}  // namespace

Runner configure_report(CLI::App& sub) {
  return refuse(
      sub, "report",
      "the page's topology picture is laid out with Graphviz, which usbsat.exe is built without; record "
      "this machine with `usbsat record -o FILE` and run `usbsat --from FILE report` on Linux");
}

Runner configure_watch(CLI::App& sub) {
  return refuse(sub, "watch", "it listens to udev's device events (Linux)");
}

Runner configure_top(CLI::App& sub) {
  return refuse(sub, "top", "it samples the kernel's per-disk counters (/sys/block/*/stat, Linux)");
}

}  // namespace usbsat::cli
