#pragma once
/// `usbsat load`: its options and how they bind to the command line (cmd_load.cpp).
#include <optional>
#include <string>
#include <vector>

#include "load/engine.hpp"
#include "src/cli/command.hpp"
#include "src/cli/load_session.hpp"

namespace usbsat::cli {

/// `usbsat load`: the job, the targets and the write-safety switches (parsed further in cmd_load.cpp).
struct LoadOptions {
  JobOptions job;                     ///< pattern, bs, qd, runtime, ramp, rwmix, region, buffer limit
  std::vector<unsigned> concurrency;  ///< phase levels, e.g. {1,2,4}; empty = all targets at once
  std::string engine{
      load::default_engine()};  ///< load::engine_names(): uring|sync|null, or iocp|sync|null on Windows
  bool write = false;           ///< allow writing at all
  std::vector<std::string> allow_write;  ///< block devices and files that may be written, named exactly
  bool buffered = false;                 ///< do not ask for O_DIRECT
  bool pin_cpus = false;                 ///< keep each worker on one CPU (load::RunConfig::pin_workers)
  std::string steady = "off";            ///< on | off | BOUND: end phases when settled (load/steady.hpp)
  std::vector<std::string> targets;
};

/// Add the options of `usbsat load` to `sub`, bound to `o`.
void bind_load_options(CLI::App& sub, LoadOptions& o);

}  // namespace usbsat::cli
