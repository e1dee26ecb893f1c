#pragma once
/// `usbsat watch`: its options and how they bind to the command line (cmd_watch.cpp).
#include "src/cli/command.hpp"

namespace usbsat::cli {

struct WatchOptions {
  unsigned count = 0;  ///< stop after this many verdicts; 0: until SIGINT/SIGTERM
};

/// Add the options of `usbsat watch` to `sub`, bound to `o`.
void bind_watch_options(CLI::App& sub, WatchOptions& o);

}  // namespace usbsat::cli
