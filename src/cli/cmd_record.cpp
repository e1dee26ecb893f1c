// usbsat record: scan this system through the platform's recorder and write what the scan read as one JSON
// document.
#include "src/cli/cmd_record.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/platform_text.hpp"
#include "src/cli/system_scan.hpp"
#include "topology/recording/recording.hpp"
#include "topology/recording/serials.hpp"
#include "topology/utc_time.hpp"

namespace usbsat::cli {
namespace {

std::string recorded_host(bool keep) {
  const auto name = host_name();
  if (!name) return "unknown";
  return keep ? *name : topology::recording::pseudonym(*name);
}

int run_record(const RecordOptions& o, const GlobalOptions& g) {
  if (g.from)
    return fail(g, kExitUsage, "record",
                "record reads this system's devices; --from " + *g.from + " is already a recording");
  topology::ScanConfig config;
  if (o.scan.mountinfo) config.mountinfo_path = *o.scan.mountinfo;
  topology::recording::Envelope meta;
  meta.recorded_at = topology::format_utc(topology::reproducible_now(), topology::UtcFormat::Seconds);
  meta.usbsat_version = USBSAT_VERSION;
  meta.host = recorded_host(o.keep_serials);
  // No /sys (Linux) or no SetupAPI answers (Windows): ScanError, exit 3 (main.cpp).
  const auto rec = topology::recording::record_system(config, std::move(meta), o.keep_serials);

  // The recording, by the -o rule (output_file.hpp); stdout without -o.
  const std::string output = o.output.value_or("-");
  // Real serial numbers are not for every reader: a new file holding them is 0600.
  write_output(output, rec.document, o.keep_serials ? NewFileAccess::kPrivate : NewFileAccess::kShared);
  print_diagnostics(stderr, rec.scan.diagnostics, g);
  if (output != "-" && !g.quiet)
    fmt::print(stderr,
               "usbsat record: wrote {} ({} KiB, {} topology nodes{}); show it with: usbsat --from {} topo\n",
               *o.output, (rec.document.size() + 1023) / 1024, rec.scan.topology.size(),
               o.keep_serials ? ", real serial numbers" : ", serial numbers replaced by pseudonyms",
               *o.output);
  return exit_code_for(rec.scan.diagnostics);
}

}  // namespace

void bind_record_options(CLI::App& sub, RecordOptions& o) {
  sub.add_option("-o,--output", o.output,
                 "Write the recording to FILE instead of stdout (- = stdout; a file is replaced atomically)");
  sub.add_flag("--keep-serials", o.keep_serials,
               "Keep serial numbers and the host name (default: stable pseudonyms, for bug reports)");
  bind_scan_options(sub, o.scan);
}

Runner configure_record(CLI::App& sub) {
  return bind_command<RecordOptions>(sub, &bind_record_options, &run_record);
}

}  // namespace usbsat::cli
