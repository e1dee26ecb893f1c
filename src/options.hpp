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

/// `usbsat doctor`: tuning of the checks.
struct DoctorOptions {
  unsigned max_sectors_target_kb = 1024;  ///< max_sectors_below_hw recommends min(max_hw_sectors_kb, this)
};

/// `usbsat saturate`: groups, job and passes (parsed further in cmd_saturate.cpp / src/saturate.hpp).
struct SaturateOptions {
  std::vector<std::string> groups;       ///< `NAME=/dev/a,/dev/b[@CAP]`, repeatable; none = USB topology
  std::string pattern = "read";          ///< read|randread
  std::string bs = "128k";
  unsigned qd = 0;                       ///< 0: by protocol (BOT 1, UAS/unknown 32)
  double runtime_s = 5;                  ///< measured seconds per phase
  double ramp_s = 1;                     ///< unmeasured seconds before each phase's window
  unsigned repeat = 1;                   ///< runs of each phase (spread -> tolerance)
  bool random_pass = false;              ///< also a 4 KiB random-read pass
  std::string engine = "uring";
  bool dry_run = false;                  ///< print groups and phases, measure nothing
  double tolerance = 0;                  ///< force the verdict tolerance (fraction); 0: derive from noise
  std::vector<std::string> devices;      ///< restrict the USB drives to these
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
  DoctorOptions doctor;
  SaturateOptions saturate;
  PlanOptions plan;
};

}  // namespace usbsat::cli
