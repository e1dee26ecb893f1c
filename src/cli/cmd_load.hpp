#pragma once
/// `usbsat load`: its options and how they bind to the command line (cmd_load.cpp).
#include <optional>
#include <string>
#include <vector>

#include "load/engine.hpp"
#include "src/cli/command.hpp"

namespace usbsat::cli {

/// `usbsat load`: the job, the targets and the write-safety switches (parsed further in cmd_load.cpp).
struct LoadOptions {
  std::string pattern = "read";       ///< read|write|randread|randwrite|randrw
  std::string bs = "128k";            ///< block size, "4k" / "128k" / "1m" / bytes
  unsigned qd = 1;                    ///< queue depth per target
  double runtime_s = 10;              ///< measured seconds per phase
  double ramp_s = 1;                  ///< unmeasured seconds before each phase's window
  std::vector<unsigned> concurrency;  ///< phase levels, e.g. {1,2,4}; empty = all targets at once
  std::string engine{
      load::default_engine()};  ///< load::engine_names(): uring|sync|null, or iocp|sync|null on Windows
  unsigned rwmix = 50;          ///< randrw: percent reads
  std::string offset = "0";     ///< region start (size string)
  std::string size = "0";       ///< region length (size string), 0 = to the end
  bool write = false;           ///< allow writing at all
  std::vector<std::string> allow_write;    ///< block devices and files that may be written, named exactly
  std::string max_buffer_memory = "256m";  ///< limit on bs × qd × targets at once (size string)
  bool buffered = false;                   ///< do not ask for O_DIRECT
  std::vector<std::string> targets;
};

/// Add the options of `usbsat load` to `sub`, bound to `o`.
void bind_load_options(CLI::App& sub, LoadOptions& o);

}  // namespace usbsat::cli
