// `usbsat saturate`: measure groups of drives that share a node (alone, 2, 4 at once) and name the link that
// limits them. The orchestration lives in src/saturate.{hpp,cpp}; this file is the command's linear steps.
#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stop_token>

#include "load/buffer.hpp"
#include "load/engine.hpp"
#include "load/errors.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/target.hpp"
#include "report/line_printer.hpp"
#include "report/saturate_report.hpp"
#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/saturate/saturate.hpp"
#include "src/cli/cmd_saturate.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/saturate_input.hpp"
#include "src/cli/signal_stop.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/escape.hpp"
#include "topology/scan.hpp"

namespace usbsat::cli {
namespace {

constexpr std::string_view kNothingToMeasure =
    "usbsat saturate: no USB drives found: nothing to measure.\n"
    "To measure other block devices or files (non-USB enclosures, test beds), name the drives that share "
    "something:\n"
    "  usbsat saturate --group NAME=/dev/sdX,/dev/sdY[@CAP]   (CAP e.g. 40M or 400MB/s; repeat --group for "
    "more groups)\n";

}  // namespace

void bind_saturate_options(CLI::App& sub, SaturateOptions& o) {
  sub.add_option("--group", o.groups,
                 "NAME=/dev/a,/dev/b,...[@CAP]: drives or files sharing one node, optional capacity (40M, "
                 "400MB/s; MB = 10^6 B); repeatable. Without it: the USB drives of this system")
      ->allow_extra_args(false);
  sub.add_option("--pattern", o.pattern, "read|randread")
      ->check(CLI::IsMember({"read", "randread"}))
      ->capture_default_str();
  sub.add_option("--bs", o.bs, "Block size: 4k, 128k, 1m or bytes")->capture_default_str();
  sub.add_option("--qd", o.qd, "Queue depth per drive (default: 1 for BOT, 32 for UAS and unknown)")
      ->check(CLI::Range(1, 1024));
  sub.add_option("--runtime", o.runtime_s, "Measured seconds per phase")->capture_default_str();
  sub.add_option("--ramp", o.ramp_s, "Seconds before each phase's measurement starts (excluded)")
      ->capture_default_str();
  sub.add_option("--repeat", o.repeat, "Runs of each phase; the spread sets the verdict's tolerance")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  sub.add_flag("--random-pass", o.random_pass, "Also measure 4 KiB random reads (a second pass)");
  sub.add_option("--engine", o.engine, load::engine_choices())
      ->check(CLI::IsMember(load::engine_names()))
      ->capture_default_str();
  sub.add_option("--tolerance", o.tolerance, "Verdict tolerance as a fraction (default: from the noise)")
      ->check(CLI::Range(0.0, 0.5));
  sub.add_flag("--dry-run", o.dry_run, "Print the groups and the phases that would run; measure nothing");
  sub.add_option("--max-buffer-memory", o.max_buffer_memory,
                 "Limit on the I/O buffers (bs x qd x drives at once); at most this machine's memory")
      ->capture_default_str();
  sub.add_option("devices", o.devices, "Only these USB drives (sdb or /dev/sdb)");
}

static int run_saturate(const SaturateOptions& o, const GlobalOptions& global) {
  if (auto rc = refuse_recording(global, "saturate")) return *rc;
  const bool json = global.json;
  auto note = [&](const std::string& s) {
    if (!global.quiet)
      fmt::print(stderr, "usbsat saturate: {}\n", topology::text_safe(s));  // paths are user text
  };
  auto usage = [&](const std::string& s) { return fail(global, kExitUsage, "saturate", s); };

  // 1. The job and the groups: parse and validate before anything is scanned or opened.
  analysis::saturate::SaturateSettings settings;
  const auto bs = load::parse_size(o.bs);
  if (!bs || *bs == 0 || *bs > UINT32_MAX)
    return usage("bad block size '" + o.bs + "': give 512 to 64m, e.g. 128k");
  if (auto e = load::set_durations(settings.job, o.runtime_s, o.ramp_s); !e.empty()) return usage(e);
  const auto limit = load::parse_buffer_limit(o.max_buffer_memory, load::physical_memory());
  if (!limit.error.empty()) return usage(limit.error);
  settings.job.block_size = static_cast<std::uint32_t>(*bs);
  settings.job.pattern = *load::parse_pattern(o.pattern);
  if (const auto errs = load::validate(settings.job); !errs.empty()) return usage(errs.front());
  settings.repeat = o.repeat;
  settings.passes = {{settings.job.pattern, settings.job.block_size, std::nullopt}};
  if (o.random_pass) settings.passes.push_back({load::Pattern::RandRead, 4096, std::nullopt});
  const std::optional<unsigned> qd = o.qd ? std::optional<unsigned>(o.qd) : std::nullopt;
  if (!(o.tolerance >= 0 && o.tolerance <= 0.5))  // CLI11's range lets NaN through
    return usage("--tolerance " + std::to_string(o.tolerance) +
                 " is out of range: give 0 (from the noise) to 0.5");
  const std::optional<double> tolerance = o.tolerance > 0 ? std::optional<double>(o.tolerance) : std::nullopt;

  std::string group_error;
  const auto parsed = analysis::common::parse_group_specs(o.groups, &group_error);
  if (!parsed) return usage(group_error);
  const auto& specs = *parsed;
  for (const auto& g : specs)
    if (auto twice = load::find_named_twice(g.paths))
      return usage("group '" + g.name + "': " + g.paths[twice->first] + " and " + g.paths[twice->second] +
                   " are the same drive (named twice)");
  if (!specs.empty() && !o.devices.empty())
    return usage("name the drives inside --group, not as extra arguments");

  // 2. The plan: declared groups, or the USB drives of this system grouped by the nodes they share.
  analysis::saturate::SaturatePlan plan;
  std::optional<topology::ScanResult> scan;
  if (!specs.empty()) {
    plan = analysis::saturate::plan_declared(specs, qd);
  } else {
    scan = scan_for(global);
    const auto& t = scan->topology;
    const auto usb = analysis::common::usb_drives_with_media(t);
    for (const auto& d : o.devices) {
      const bool found =
          std::any_of(usb.begin(), usb.end(), [&](const auto& u) { return d == u.name || d == u.devnode; });
      if (!found)
        return usage("'" + d + "' is not a USB drive; to measure any block device or file use --group NAME=" +
                     d + ",...");
    }
    if (usb.empty()) {
      // Nothing failed: there is just nothing to measure here. Exit 0 (src/README.md, "usbsat saturate").
      if (json)
        std::fputs(report::render_saturate_json(build_report(plan, settings, nullptr, &t)).c_str(), stdout);
      std::fputs(std::string(kNothingToMeasure).c_str(), stderr);
      return kExitOk;
    }
    plan = analysis::saturate::plan_topology(t, o.devices, qd);
    if (plan.groups.empty())
      note(plan.notes.empty() ? "no two USB drives share a node: nothing to measure (use --group to measure "
                                "drives you choose)"
                              : plan.notes.front() + ": nothing to measure");
  }
  const topology::Topology* topo = scan ? &scan->topology : nullptr;

  // The I/O buffers of the largest phase of any group (the passes run one after the other).
  for (const auto& g : plan.groups) {
    const unsigned at_once = g.levels.empty() ? 1u : *std::max_element(g.levels.begin(), g.levels.end());
    for (const auto& pass : settings.passes)
      if (auto e = load::check_buffer_memory(pass.block_size, pass.qd.value_or(g.qd), at_once, limit.bytes))
        return usage(*e);
  }

  if (o.dry_run || plan.groups.empty()) {
    auto r = build_report(plan, settings, nullptr, topo);
    std::fputs(plan.groups.empty() && json ? report::render_saturate_json(r).c_str()
                                           : report::render_saturate_plan(r, json).c_str(),
               stdout);
    return kExitOk;
  }

  // 3. The engine: io_uring unless unavailable (then sync, with a one-line notice).
  const auto engine = load::choose_engine(o.engine);
  if (!engine.notice.empty()) note(engine.notice);
  settings.engine = engine.name;

  // 4. Open every drive once, read-only (saturate never writes). One that cannot be opened is recorded and
  //    left out; the rest are measured.
  std::vector<load::OpenedTarget> opened;
  std::map<std::string, load::RunTarget> targets;
  std::vector<report::LoadDiagnostic> diags;
  bool open_failed = false;
  for (const auto& g : plan.groups)
    for (const auto& d : g.drives) {
      if (targets.contains(d.path) ||
          std::any_of(diags.begin(), diags.end(), [&](const auto& x) { return x.target == d.path; }))
        continue;
      try {
        auto ot = load::open_target(d.path, {load::Access::ReadOnly, true, false});
        if (!ot.notice.empty()) {
          diags.push_back({"warning", d.path, ot.notice});
          note(d.path + ": " + ot.notice);
        }
        targets.emplace(d.path,
                        load::RunTarget{d.path, ot.fd.get(), ot.info.size_bytes, ot.info.logical_block});
        opened.push_back(std::move(ot));
      } catch (const load::TargetError& e) {
        diags.push_back({"error", d.path, e.reason});
        note(e.what());
        open_failed = true;
      }
    }
  if (targets.empty())
    return fail(global, kExitEnvironment, "saturate", "cannot run the load: no drive could be opened",
                as_diagnostics(diags));

  // 5. Measure; SIGINT/SIGTERM stop promptly and the finished phases are still reported.
  std::stop_source stop;
  analysis::saturate::SaturateMeasurement m;
  bool interrupted = false;
  {
    SignalStop signals(stop);
    const Terminal progress_terminal = terminal_for(kStderrFd, global.no_color);
    const bool live = !json && !global.quiet && progress_terminal.smart;
    report::LinePrinter printer(live, progress_terminal.width);
    const load::Clock clock;
    analysis::saturate::StepSnapshotFn on_snapshot;
    if (live)
      on_snapshot = [&](const analysis::saturate::StepInfo& st, const load::Snapshot& s) {
        const std::string label = st.what + (settings.passes.size() > 1 ? " " + st.pass : "");
        std::fputs(printer
                       .status(report::format_saturate_progress(st.group, label, st.index, st.count, s,
                                                                clock.now_ns()))
                       .c_str(),
                   stderr);
        std::fflush(stderr);
      };
    const analysis::saturate::PhaseRunner runner =
        [&clock](const std::vector<load::RunTarget>& t, const load::RunConfig& c, std::stop_token st,
                 const load::SnapshotFn& f) { return load::run_load(t, c, st, clock, f); };
    m = analysis::saturate::measure(plan, targets, settings, runner, stop.get_token(), on_snapshot);
    std::fputs(printer.finish().c_str(), stderr);
    interrupted = signals.signalled() || m.interrupted;
  }

  // 6. Judge each group and pass, render.
  auto r = build_report(plan, settings, &m, topo, tolerance);
  r.diagnostics = diags;
  r.interrupted = interrupted;
  r.style = terminal_for(kStdoutFd, global.no_color).style();
  const std::string out = json ? report::render_saturate_json(r) : report::render_saturate_text(r);
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);

  if (interrupted) return kExitInterrupted;
  bool failed = open_failed;
  for (const auto& f : m.failures) failed |= !f.empty();
  return failed ? kExitPartial : kExitOk;
}

Runner configure_saturate(CLI::App& sub) {
  return bind_command<SaturateOptions>(sub, &bind_saturate_options, &run_saturate);
}

}  // namespace usbsat::cli
