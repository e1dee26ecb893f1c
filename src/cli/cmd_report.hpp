#pragma once
/// `usbsat report`: its options and how they bind to the command line (cmd_report.cpp).
#include <optional>
#include <string>

#include "src/cli/command.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

/// `usbsat report`: one self-contained HTML page.
struct ReportOptions {
  ScanOptions scan;
  bool all_ports = false;                     ///< -a: one node per empty port instead of one per hub
  std::string output = "usbsat-report.html";  ///< -o FILE; "-" is stdout
  std::string saturate;                       ///< --saturate RESULT.json (`saturate --json`), "" none
  std::string load;                           ///< --load RESULT.json (`load --json`), "" none
  std::optional<std::string>
      time;  ///< --time TEXT: printed as the page's time (else SOURCE_DATE_EPOCH, else now)
  std::optional<std::string> hostname;  ///< --hostname NAME (else gethostname())
};

/// Add the options of `usbsat report` to `sub`, bound to `o`.
void bind_report_options(CLI::App& sub, ReportOptions& o);

}  // namespace usbsat::cli
