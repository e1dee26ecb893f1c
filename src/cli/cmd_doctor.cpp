// usbsat doctor: scan, gather the few facts outside the topology, run the checks, render, exit by severity.
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "report/doctor_report.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "src/cli/cmd_doctor.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/doctor_facts.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

void bind_doctor_options(CLI::App& sub, DoctorOptions& o) {
  sub.add_option("--max-sectors-target", o.max_sectors_target_kb,
                 "max_sectors_kb to recommend (capped by max_hw_sectors_kb)")
      ->check(CLI::Range(4u, 65536u));
}

static int run_doctor(const DoctorOptions& o, const GlobalOptions& global) {
  // 1. The topology; an unusable sysfs throws ScanError, which main() maps to exit code 3.
  auto scan = scan_for(global);
  print_diagnostics(stderr, scan.diagnostics, global);

  // 2. Nothing to check without a USB host controller (containers, VMs): say so and succeed.
  if (scan.topology.controllers().empty()) {
    if (global.json) {
      const report::DoctorReportInput in{{}, scan.diagnostics, 0, 0};
      fmt::print("{}", report::render_doctor_json(in));
    }
    fmt::print(global.json ? stderr : stdout,
               "usbsat doctor: no USB host controller found on this system; nothing to check.\n");
    return kExitOk;
  }

  // 3. The checks (with the few facts outside the topology the scan recorded: quirks, uas loaded), then the
  //    rendering; the exit code is the worst severity.
  const auto result = diagnose_system(scan, read_history_context(global, scan), o.max_sectors_target_kb);
  const report::DoctorReportInput in{result.findings, scan.diagnostics, result.controllers_checked,
                                     result.drives_checked, terminal_for(kStdoutFd, global.no_color).style()};
  const std::string out = global.json ? report::render_doctor_json(in) : report::render_doctor_text(in);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return doctor_exit_code(report::worst_severity(result.findings));
}

Runner configure_doctor(CLI::App& sub) {
  return bind_command<DoctorOptions>(sub, &bind_doctor_options, &run_doctor);
}

}  // namespace usbsat::cli
