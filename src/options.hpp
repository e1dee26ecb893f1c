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
};

/// `usbsat load`: the job, the targets and the write-safety switches (parsed further in cmd_load.cpp).
struct LoadOptions {
  std::string pattern = "read";         ///< read|write|randread|randwrite|randrw
  std::string bs = "128k";              ///< block size, "4k" / "128k" / "1m" / bytes
  unsigned qd = 1;                      ///< queue depth per target
  double runtime_s = 10;                ///< measured seconds per phase
  double ramp_s = 1;                    ///< unmeasured seconds before each phase's window
  std::vector<unsigned> concurrency;    ///< phase levels, e.g. {1,2,4}; empty = all targets at once
  std::string engine = "uring";         ///< uring|sync|null
  unsigned rwmix = 50;                  ///< randrw: percent reads
  std::string offset = "0";             ///< region start (size string)
  std::string size = "0";               ///< region length (size string), 0 = to the end
  bool write = false;                   ///< allow writing at all
  std::vector<std::string> allow_write; ///< block devices that may be written, named exactly
  bool buffered = false;                ///< do not ask for O_DIRECT
  std::vector<std::string> targets;
};

/// `usbsat plan`: where to plug drives (or `--predict`: the shares of the current placement).
struct PlanOptions {
  bool predict = false;              ///< --predict: shares of the drives as they are plugged in now
  unsigned drives = 0;               ///< --drives N: N drives not connected yet
  std::vector<std::string> demand;   ///< --demand 400M (every drive) or sdb=170M (one drive), repeatable
  std::string prefer = "speed";      ///< --prefer speed|uas|few-moves
  std::vector<std::string> devices;  ///< connected drives to re-place (or to predict)
};

/// Everything one run may need; only the struct of the chosen command is meaningful.
struct Invocation {
  std::string command;
  GlobalOptions global;
  ScanOptions scan;
  LoadOptions load;
  PlanOptions plan;
};

}  // namespace usbsat::cli
