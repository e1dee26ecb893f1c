#pragma once
/// `usbsat export --prometheus [-o FILE]`: the scan, the drive facts, plan --predict's shares and the
/// doctor's findings as node_exporter textfile-collector metrics (report/prometheus.hpp), written atomically.
#include <string>

#include "src/cli/command.hpp"

namespace usbsat::cli {

struct ExportOptions {
  bool prometheus = false;   ///< the format (the only one so far; required, so a second can be added)
  std::string output = "-";  ///< "-": stdout; else a file replaced atomically
};

void bind_export_options(CLI::App& sub, ExportOptions& o);

}  // namespace usbsat::cli
