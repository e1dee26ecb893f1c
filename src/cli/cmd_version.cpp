// usbsat version: the version, as text or JSON.
#include <fmt/format.h>

#include "src/cli/command.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/parse.hpp"

namespace usbsat::cli {

Runner configure_version(CLI::App&) {
  return [](const GlobalOptions& g) {
    if (g.json)
      fmt::print("{{\"name\":\"usbsat\",\"version\":\"{}\"}}\n", USBSAT_VERSION);
    else
      fmt::print("{}\n", version_string());
    return int{kExitOk};
  };
}

}  // namespace usbsat::cli
