// usbsat export --prometheus: scan, summarise, predict, diagnose, render, write (stdout or atomically a
// file).
#include "src/cli/cmd_export.hpp"

#include <chrono>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "src/analysis/model/predict.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/doctor_facts.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/export_input.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/predict_input.hpp"
#include "src/cli/system_scan.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

void bind_export_options(CLI::App& sub, ExportOptions& o) {
  sub.add_flag("--prometheus", o.prometheus,
               "node_exporter textfile-collector format (Prometheus text format)");
  sub.add_option("-o,--output", o.output,
                 "Write to FILE (a file is replaced atomically, a device written through); - = stdout")
      ->capture_default_str();
}

static int run_export(const ExportOptions& o, const GlobalOptions& global) {
  if (!o.prometheus) return fail(global, kExitUsage, "export", "give the format: --prometheus");
  if (global.json)
    return fail(global, kExitUsage, "export",
                "--json does not apply: export writes the Prometheus text format");

  // 1. The scan, timed (usbsat_scan_duration_seconds); an unusable sysfs throws ScanError (exit 3 in main).
  const auto start = std::chrono::steady_clock::now();
  const auto scan = scan_for(global);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  print_diagnostics(stderr, scan.diagnostics, global);

  // 2. plan --predict's model (every USB drive with media busy at once), computed once for the doctor as
  //    `usbsat doctor` runs it and for the metrics.
  const auto h = read_history_context(global, scan);
  const auto current = predict_current(scan.topology, h);
  const auto doctor = diagnose_system(scan, h, kMaxSectorsTargetKb, &current.prediction, &current.at_ceiling);
  const std::string text = report::render_prometheus(
      to_report(scan.topology, current.prediction, doctor.findings, took.count(), scan.diagnostics, h.model));

  // 3. Out by the -o rule: a file is replaced atomically so the collector never reads half of it.
  write_output(o.output, text);
  return exit_code_for(scan.diagnostics);
}

Runner configure_export(CLI::App& sub) {
  return bind_command<ExportOptions>(sub, &bind_export_options, &run_export);
}

}  // namespace usbsat::cli
