// usbsat record: scan this system through the platform's recorder and write what the scan read as one JSON
// document.
#include "src/cli/cmd_record.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/analysis/common/usb_drives.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/platform_text.hpp"
#include "src/cli/system_scan.hpp"
#include "topology/base/utc_time.hpp"
#include "topology/history/identity.hpp"
#include "topology/history/store_json.hpp"
#include "topology/recording/recording.hpp"
#include "topology/recording/serials.hpp"

namespace usbsat::cli {
namespace {

std::string recorded_host(bool keep) {
  const auto name = host_name();
  if (!name) return "unknown";
  return keep ? *name : topology::recording::pseudonym(*name);
}

/// The part of this machine's history (history_context.hpp) about the recorded drives and the resources on
/// their paths; empty when there is none.
history::Store recorded_part(const topology::Topology& t, const history::Store& all) {
  history::Store out;
  std::set<std::string> ids;
  for (const auto& d : analysis::common::usb_drives_with_media(t)) {
    if (const auto id = history::drive_identity(t, d.block))
      if (const auto* rec = history::find_drive(all, id->key)) out.drives.push_back(*rec);
    for (const auto& r : topology::path_resources(t, d.block)) ids.insert(r.id);
  }
  for (const auto& r : all.resources)
    if (ids.contains(r.id)) out.resources.push_back(r);
  return out;
}

/// The recording's document with the recorded part of the history added ("history"), when there is one.
std::string with_history(const topology::recording::Recorded& rec, const GlobalOptions& g) {
  const auto h = read_history_context(g, rec.scan);
  const auto part = recorded_part(rec.scan.topology, h.store);
  if (part.drives.empty() && part.resources.empty()) return rec.document;
  auto envelope = topology::recording::parse_envelope(rec.document);
  envelope.history = nlohmann::json::parse(history::write_store(part));
  return topology::recording::write_recording(envelope);
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

  // What this machine's drives and links measured goes with it, so `--from` predicts as this machine does.
  const std::string document = with_history(rec, g);

  // The recording, by the -o rule (output_file.hpp); stdout without -o.
  const std::string output = o.output.value_or("-");
  // Real serial numbers are not for every reader: a new file holding them is 0600.
  write_output(output, document, o.keep_serials ? NewFileAccess::kPrivate : NewFileAccess::kShared);
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
