// usbsat top: sample /sys/class/block/<dev>/stat every --interval, aggregate the bytes per node
// (analysis/top), print a screen per interval (refreshed in place on a terminal), plain frames when piped,
// JSON Lines with --json.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "report/top_report.hpp"
#include "src/analysis/common/group_spec.hpp"
#include "src/analysis/top/nodes.hpp"
#include "src/analysis/top/rates.hpp"
#include "src/cli/cmd_top.hpp"
#include "src/cli/count_option.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/load_session.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/base/utc_time.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {
namespace {

/// The limits of --interval: a tenth of a second (stat counters move in whole requests) to an hour.
constexpr double kMinInterval = 0.1, kMaxInterval = 3600;

/// The text of `dev`'s stat file; nullopt when it cannot be read or the device is gone: its directory removed
/// (an unplugged drive) or its size 0 (a detached loop device, a card reader without its card), whose
/// unchanging counters would read as 0.0 MB/s forever.
std::optional<std::string> read_stat(const std::string& dev) {
  const std::string dir = "/sys/class/block/" + dev;
  if (std::ifstream size(dir + "/size"); size)
    if (unsigned long long sectors = 1; (size >> sectors) && sectors == 0) return std::nullopt;
  std::ifstream in(dir + "/stat");
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

analysis::top::Sample sample(const std::set<std::string>& devices) {
  std::map<std::string, std::optional<std::string>> texts;
  for (const auto& d : devices) texts[d] = read_stat(d);
  return analysis::top::make_sample(now_s(), texts);
}

/// One screen (or JSON line) of the rates between two samples, on stdout.
void print_frame(const GlobalOptions& global, const Terminal& term, bool refresh, unsigned i,
                 const std::vector<analysis::top::TopNode>& nodes, const analysis::top::Sample& prev,
                 const analysis::top::Sample& cur) {
  const report::TopFrame frame{topology::utc_now(topology::UtcFormat::Milliseconds), i, cur.t_s - prev.t_s,
                               analysis::top::node_rates(nodes, prev, cur)};
  std::string out;
  if (global.json)
    out = report::render_top_json(frame);
  else
    out = (refresh ? "\x1b[H\x1b[2J" : (i > 1 ? "\n" : "")) + report::render_top_text(frame, term.style());
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

void bind_top_options(CLI::App& sub, TopOptions& o) {
  sub.add_option("--interval", o.interval_s, "Seconds between samples (0.1 to 3600)")->capture_default_str();
  sub.add_option("--count", o.count, "Stop after N samples (default: run until Ctrl-C)")
      ->check(whole_count(1, 1000000));
  sub.add_option("--group", o.groups, "NAME=/dev/a,/dev/b[@CAP]: also show these devices as one node")
      ->type_name("NAME=DEV,DEV[@CAP]");
}

static int run_top(const TopOptions& o, const GlobalOptions& global) {
  auto usage = [&](const std::string& s) { return fail(global, kExitUsage, "top", s); };
  if (auto rc = refuse_recording(global, "top")) return *rc;            // it samples this system's /sys/block
  if (!(o.interval_s >= kMinInterval && o.interval_s <= kMaxInterval))  // also refuses NaN
    return usage(fmt::format("--interval {} is out of range: give {} to {} seconds", o.interval_s,
                             kMinInterval, kMaxInterval));
  std::string group_error;
  auto specs = analysis::common::parse_group_specs(o.groups, &group_error);
  if (!specs) return usage(group_error);
  for (auto& g : *specs) {  // named as `load` names its targets: existing block devices, each once
    auto named = check_block_devices(g.paths);
    if (!named.error.empty()) return usage("group '" + g.name + "': " + named.error);
    g.paths = std::move(named.paths);
  }

  // The nodes: the declared groups, then every resource on the USB drives' paths (one scan at the start).
  const auto scan = scan_for(global);
  print_diagnostics(stderr, scan.diagnostics, global);
  auto nodes = analysis::top::group_nodes(*specs);
  for (auto& n : analysis::top::topology_nodes(scan.topology)) nodes.push_back(std::move(n));
  std::set<std::string> devices;
  for (const auto& n : nodes) devices.insert(n.devices.begin(), n.devices.end());

  const auto term = terminal_for(kStdoutFd, global.no_color);
  const bool refresh = term.smart && !global.json;
  run_interruptible(global, [&](std::stop_token stop, const load::Clock&, const StatusFn&) {
    auto prev = sample(devices);
    for (unsigned i = 1; o.count == 0 || i <= o.count; ++i) {
      const double deadline = prev.t_s + o.interval_s;
      while (!stop.stop_requested() && now_s() < deadline)
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(0.05, deadline - now_s())));
      if (stop.stop_requested()) break;
      auto cur = sample(devices);
      print_frame(global, term, refresh, i, nodes, prev, cur);
      prev = std::move(cur);
    }
  });
  return kExitOk;
}

Runner configure_top(CLI::App& sub) {
  return bind_command<TopOptions>(sub, &bind_top_options, &run_top);
}

}  // namespace usbsat::cli
