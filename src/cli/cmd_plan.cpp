// `usbsat plan`: where to plug N new drives (or re-place connected ones) so that, all running at once, the
// slowest is as fast as possible; `usbsat plan --predict`: the model's shares for the drives as plugged now.
#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <cstdio>

#include "report/plan_report.hpp"
#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/plan/demands.hpp"
#include "src/analysis/plan/planner.hpp"
#include "src/analysis/plan/question.hpp"
#include "src/analysis/saturate/verdict_text.hpp"
#include "src/cli/cmd_plan.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_context.hpp"
#include "src/cli/plan_input.hpp"
#include "src/cli/predict_input.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "src/cli/views.hpp"
#include "topology/model/connectors.hpp"
#include "topology/scan/scan.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::cli {

void bind_plan_options(CLI::App& sub, PlanOptions& o) {
  sub.add_flag("--predict", o.predict,
               "Predicted shares of the drives as plugged in now (all USB drives, or DEV...)");
  sub.add_option("--drives", o.drives, "Plan N drives that are not connected yet")->check(CLI::Range(1, 64));
  sub.add_option("--demand", o.demand,
                 "Per-drive demand, 0.1M to 100G: 400M for every drive, or DEV=170M (once per drive)")
      ->allow_extra_args(false);
  sub.add_option("--prefer", o.prefer, "speed|uas|few-moves")
      ->check(CLI::IsMember({"speed", "uas", "few-moves"}))
      ->capture_default_str();
  sub.add_option(
         "--pattern", o.pattern,
         "read|write: the direction predicted (a USB4 dock's DisplayPort streams take writes' way only)")
      ->check(CLI::IsMember({"read", "write"}))
      ->capture_default_str();
  sub.add_option("devices", o.devices, "Connected drives to re-place (or to predict), e.g. sdb sdc");
}

/// A usage error: the message on stderr (and with --json the error document on stdout), exit 2.
static int usage_error(const GlobalOptions& global, const std::string& message) {
  return fail(global, kExitUsage, "plan", message);
}

static int run_plan(const PlanOptions& o, const GlobalOptions& global) {
  // 1. The question must be one of: --predict, --drives N, or DEV...; --demand values must parse, lie in
  //    range, be given once each and name drives of the question (for `--predict` of every USB drive the
  //    names are known after the scan).
  const auto parsed = analysis::plan::parse_demands(o.demand);
  if (!parsed.error.empty()) return usage_error(global, parsed.error);
  const auto& demands = parsed.demands;
  if (!o.predict && (o.drives == 0) == o.devices.empty())
    return usage_error(global,
                       "give --drives N (new drives) or the drives to re-place (sdb sdc ...), or --predict");
  if (o.predict && o.drives != 0)
    return usage_error(global,
                       "--predict is about the drives plugged in now; --drives N plans new ones: give one");
  if (auto e = analysis::plan::repeated_device(o.devices)) return usage_error(global, *e);
  const bool names_after_scan = o.predict && o.devices.empty();
  if (!names_after_scan)
    if (auto e = analysis::plan::unknown_demand(
            demands, analysis::plan::demand_names(o.devices, o.predict ? 0 : o.drives)))
      return usage_error(global, *e);

  // 2. Scan. No controller at all: say so plainly, pointing at the fixtures; the (empty) answer still prints.
  const auto scan = scan_for(global);
  const auto& t = scan.topology;
  const bool no_usb = t.controllers().empty();
  const std::string shown =
      o.predict ? "plan --predict" : "plan --drives " + std::to_string(std::max(o.drives, 1u));
  if (auto notice = no_usb_notice(t, shown)) std::fputs(notice->c_str(), stderr);
  print_diagnostics(stderr, scan.diagnostics, global);
  if (!o.devices.empty()) {
    std::vector<std::string> usb;
    for (const auto& d : analysis::common::usb_drives(t)) usb.push_back(d.name);
    if (auto e = analysis::plan::unknown_device(o.devices, usb)) return usage_error(global, *e);
  }
  if (names_after_scan) {
    std::vector<std::string> usb;
    for (const auto& d : analysis::common::usb_drives_with_media(t)) usb.push_back(d.name);
    if (auto e = analysis::plan::unknown_demand(demands, usb)) return usage_error(global, *e);
  }

  // 3. What the drives measured before, and the links' measured capacities (history_context.hpp).
  auto h = read_history_context(global, scan);
  h.model.direction = o.pattern == "write" ? topology::Direction::Write : topology::Direction::Read;

  // 3a. --predict: the model over the current placement (all USB drives, or the ones named).
  if (o.predict) {
    const auto problem = analysis::plan::current_problem(t, o.devices, demands.per_drive, &h.store, h.model);
    auto in = to_report(t, problem, analysis::model::predict_fair_share(problem), h.model);
    in.style = terminal_for(kStdoutFd, global.no_color).style();
    if (demands.common)
      std::fputs("usbsat plan: --predict takes per-drive demands (DEV=RATE); the common one is ignored\n",
                 stderr);
    std::fputs((global.json ? report::render_predict_json(in) : report::render_predict_text(in)).c_str(),
               stdout);
    std::fflush(stdout);
    print_diagnostics(stderr, problem.diagnostics, global);
    return std::max(exit_code_for(scan.diagnostics), exit_code_for(problem.diagnostics));
  }

  // 3b. The plan: search the connectors with the bandwidth model.
  analysis::plan::PlanRequest req;
  req.devices = o.devices;
  req.new_drives = o.devices.empty() ? o.drives : 0;
  req.demand = demands.common;
  req.per_drive = demands.per_drive;
  req.prefer = analysis::plan::parse_preference(o.prefer).value_or(analysis::plan::PlanPreference::Speed);
  req.history = &h.store;
  const auto plan = analysis::plan::make_plan(t, req, h.model);
  auto in = to_report(t, plan, demands.common, h.model);
  in.style = terminal_for(kStdoutFd, global.no_color).style();
  std::fputs((global.json ? report::render_plan_json(in) : report::render_plan_text(in)).c_str(), stdout);
  std::fflush(stdout);
  // Without any USB controller there is nothing to place drives on: the notice above is the answer, not a
  // failure of the planner.
  if (no_usb) return exit_code_for(scan.diagnostics);
  print_diagnostics(stderr, plan.diagnostics, global);
  return std::max(exit_code_for(scan.diagnostics), exit_code_for(plan.diagnostics));
}

Runner configure_plan(CLI::App& sub) {
  return bind_command<PlanOptions>(sub, &bind_plan_options, &run_plan);
}

}  // namespace usbsat::cli
