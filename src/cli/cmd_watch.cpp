// usbsat watch: listen to udev's disk events, rescan on each, print the verdict (analysis/watch) per USB
// drive plugged in or removed, until SIGINT/SIGTERM (exit 0) or --count verdicts.
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <stop_token>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "report/watch_report.hpp"
#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "src/analysis/watch/verdict.hpp"
#include "src/cli/cmd_watch.hpp"
#include "src/cli/count_option.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/doctor_facts.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/signal_stop.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/base/utc_time.hpp"
#include "topology/scan/scan.hpp"
#include "topology/scan/udev_monitor.hpp"

namespace usbsat::cli {

void bind_watch_options(CLI::App& sub, WatchOptions& o) {
  sub.add_option("--count", o.count, "stop after N verdicts (default: run until Ctrl-C)")
      ->check(whole_count(1, 1000000));
}

static int run_watch(const WatchOptions& o, const GlobalOptions& global) {
  if (auto rc = refuse_recording(global, "watch")) return *rc;  // it listens to this system's udev
  std::stop_source stop;
  const SignalStop signals(stop);
  // Listen first, then scan: an event between the two is seen (at worst as a drive already in the scan).
  topology::UdevMonitor monitor;
  auto before = scan_for(global);
  print_diagnostics(stderr, before.diagnostics, global);
  const auto history = read_history_context(global, before);
  const analysis::doctor::ModelSharePredictor model(&history.store, &history.model);
  auto config = system_doctor_config(before.host, 1024);
  config.predictor = &model;
  const auto style = terminal_for(kStdoutFd, global.no_color).style();
  if (!global.quiet)
    fmt::print(
        stderr,
        "usbsat watch: {} USB drive(s) connected; waiting for USB storage to come or go (Ctrl-C to stop)\n",
        analysis::common::usb_drives(before.topology).size());
  std::fflush(stderr);

  unsigned printed = 0;
  while (!stop.stop_requested()) {
    pollfd p{monitor.fd(), POLLIN, 0};
    const int r = ::poll(&p, 1, 200);  // 200 ms: how soon a stop request is noticed
    if (r <= 0 || !(p.revents & POLLIN)) continue;
    while (const auto ev = monitor.receive()) {
      auto after = scan_for(global);
      print_diagnostics(stderr, after.diagnostics, global);
      const auto v =
          analysis::watch::verdict(before.topology, after.topology, {ev->action, ev->sysname}, config);
      before = std::move(after);
      if (!v) continue;
      const std::string out =
          global.json ? report::render_watch_json(*v, topology::utc_now(topology::UtcFormat::Milliseconds))
                      : report::render_watch_text(*v, style);
      std::fwrite(out.data(), 1, out.size(), stdout);
      std::fflush(stdout);
      if (o.count && ++printed >= o.count) return kExitOk;
    }
  }
  return kExitOk;
}

Runner configure_watch(CLI::App& sub) {
  return bind_command<WatchOptions>(sub, &bind_watch_options, &run_watch);
}

}  // namespace usbsat::cli
