#pragma once
/// Plain option structs filled by parse_args(), one per command, plus the global flags.
#include <optional>
#include <string>
#include <vector>

namespace usbsat::cli {

/// Flags every command understands.
struct GlobalOptions {
  bool json = false;     ///< machine-readable output on stdout
  bool verbose = false;  ///< also print info-level diagnostics
  bool quiet = false;    ///< no progress, no diagnostics below errors
  bool no_color = false;
};

/// `usbsat topo|drives|ports`: what to scan and show.
struct ScanOptions {
  bool all_devices = false;  ///< topo --all: one line per empty port instead of a per-hub summary
  std::optional<std::string> mountinfo;  ///< --mountinfo PATH: mounts from PATH ("": none), not /proc/self/mountinfo
};

/// Everything one run may need; only the struct of the chosen command is meaningful.
struct Invocation {
  std::string command;
  GlobalOptions global;
  ScanOptions scan;
};

}  // namespace usbsat::cli
