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
#include "src/cli/predict_input.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "src/cli/views.hpp"
#include "topology/model/connectors.hpp"
#include "topology/scan/scan.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::cli {
namespace {

using analysis::model::Bandwidth;
using cli::to_report;  // the prediction conversions (predict_input.hpp) beside the plan's own below

/// The speed class a slot offers (a USB3 side marked `not used` does not count).
std::string slot_speed(const analysis::plan::PlanSlot& s) {
  return std::string(
      topology::to_string(topology::connector_class(s.usb3_port ? s.usb3_speed : s.usb2_speed)));
}

report::PlanInput to_report(const topology::Topology& t, const analysis::plan::Plan& plan,
                            std::optional<Bandwidth> common, const topology::CapacityModel& model) {
  report::PlanInput in;
  in.replace = plan.replace;
  in.requested = plan.requested;
  in.prefer = std::string(analysis::plan::to_string(plan.prefer));
  if (common) in.demand_mbs = common->mbs();
  for (const auto& p : plan.placements) {
    report::PlanRow r;
    r.drive = p.drive;
    r.connector = topology::summarize_connector(t, p.connector);
    r.port = t[p.port].as<topology::PortInfo>().name;
    for (const auto& s : plan.slots)
      if (s.connector == p.connector) r.speed = slot_speed(s);
    r.superspeed = p.superspeed;
    r.controller = topology::summarize_controller(t, t.connectors()[p.connector].controller);
    if (p.from) r.from = topology::summarize_connector(t, *p.from);
    if (p.from_port) r.from_port = t[*p.from_port].as<topology::PortInfo>().name;
    r.moved = p.moved;
    r.rate = std::string(topology::to_string(p.rate));
    r.protocol = std::string(topology::to_string(p.protocol));
    r.demand_mbs = p.prediction.demand.mbs();
    r.demand_source = std::string(topology::to_string(p.prediction.basis.kind));
    r.demand_basis = topology::describe_basis(p.prediction.basis);
    r.basis = topology::basis_short(p.prediction.basis);
    r.predicted_mbs = p.prediction.predicted.mbs();
    r.bottleneck = to_report(p.prediction.bottleneck);
    in.rows.push_back(std::move(r));
  }
  in.min_mbs = plan.min.mbs();
  in.total_mbs = plan.total.mbs();
  in.moves = plan.moves;
  in.already_optimal = plan.already_optimal;
  if (const auto& h = plan.headroom)
    in.headroom = report::PlanHeadroom{h->resource,   h->label,  h->capacity.mbs(),
                                       h->load.mbs(), h->drives, h->per_drive.mbs()};
  if (plan.current) {
    report::PredictInput cur;
    for (const auto& d : plan.current->drives) {
      cur.drives.push_back(to_report(t, d, model));
    }
    cur.aggregate_mbs = plan.current->aggregate.mbs();
    in.current = std::move(cur);
  }
  for (const auto& a : plan.avoid) {
    report::PlanAvoid r{a.kind, a.node, std::nullopt, {}, a.reason};
    if (a.capacity) r.capacity_mbs = a.capacity->mbs();
    for (auto c : a.connectors) r.connectors.push_back(t.connectors()[c].id);
    in.avoid.push_back(std::move(r));
  }
  in.method = plan.method;
  in.classes = plan.classes;
  in.evaluated = plan.evaluated;
  in.usable_connectors = plan.slots.size();
  in.diagnostics = plan.diagnostics;
  return in;
}

}  // namespace

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
