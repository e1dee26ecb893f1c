#pragma once
/// `usbsat saturate`: its options and how they bind to the command line (cmd_saturate.cpp).
#include <optional>
#include <string>
#include <vector>

#include "load/engine.hpp"
#include "src/cli/command.hpp"
#include "src/cli/load_session.hpp"

namespace usbsat::cli {

/// `usbsat saturate`: groups, job and passes (parsed further in cmd_saturate.cpp).
struct SaturateOptions {
  std::vector<std::string> groups;  ///< `NAME=/dev/a,/dev/b[@CAP]`, repeatable; none = USB topology
  /// pattern (read|randread|write), bs, runtime, ramp, buffer limit; job.qd 0: by protocol (BOT 1,
  /// UAS/unknown 32)
  JobOptions job{"read", "128k", 0, 5, 1};
  unsigned repeat = 1;        ///< runs of each phase (spread -> tolerance)
  std::string steady = "on";  ///< on | off | BOUND: end phases when settled (load/steady.hpp)
  bool ramp_given = false;    ///< --ramp was given (else the settle rule's shorter least ramp applies)
  bool random_pass = false;   ///< also a 4 KiB random-read pass
  std::string engine{load::default_engine()};
  bool dry_run = false;                  ///< print groups and phases, measure nothing
  double tolerance = 0;                  ///< force the verdict tolerance (fraction); 0: derive from noise
  std::vector<std::string> devices;      ///< restrict the USB drives to these
  bool write = false;                    ///< --write: allow a write pattern at all (destroys data)
  std::vector<std::string> allow_write;  ///< --allow-write: the drives that may be written, named exactly
};

/// Add the options of `usbsat saturate` to `sub`, bound to `o`.
void bind_saturate_options(CLI::App& sub, SaturateOptions& o);

}  // namespace usbsat::cli
