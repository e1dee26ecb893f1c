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
  bool all_devices = false;  ///< topo: show every USB device, not only hubs and storage
};

/// `usbsat doctor`: tuning of the checks.
struct DoctorOptions {
  unsigned max_sectors_target_kb = 1024;  ///< max_sectors_below_hw recommends min(max_hw_sectors_kb, this)
};

/// Everything one run may need; only the struct of the chosen command is meaningful.
struct Invocation {
  std::string command;
  GlobalOptions global;
  ScanOptions scan;
  DoctorOptions doctor;
};

}  // namespace usbsat::cli
