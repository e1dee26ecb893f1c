#include "src/cli/system_scan.hpp"

#include <string>

#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "topology/recording/recording.hpp"

namespace usbsat::cli {

topology::ScanResult scan_for(const GlobalOptions& g, const topology::ScanConfig& config) {
  if (g.from) return topology::recording::load_recording(*g.from, config);
  return topology::scan_system(config);
}

std::optional<int> refuse_recording(const GlobalOptions& g, std::string_view command) {
  if (!g.from) return std::nullopt;
  return fail(g, kExitUsage, command,
              "needs the real devices, and --from " + *g.from + " is a recording: run " +
                  std::string(command) + " without --from on the machine itself");
}

}  // namespace usbsat::cli
