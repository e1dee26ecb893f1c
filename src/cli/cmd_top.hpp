#pragma once
/// `usbsat top`: its options and how they bind to the command line (cmd_top.cpp).
#include <string>
#include <vector>

#include "src/cli/command.hpp"

namespace usbsat::cli {

struct TopOptions {
  double interval_s = 1;            ///< seconds between samples
  unsigned count = 0;               ///< stop after this many frames; 0: until SIGINT/SIGTERM
  std::vector<std::string> groups;  ///< `NAME=dev,dev[@CAP]`, repeatable (analysis/common/group_spec.hpp)
};

/// Add the options of `usbsat top` to `sub`, bound to `o`.
void bind_top_options(CLI::App& sub, TopOptions& o);

}  // namespace usbsat::cli
