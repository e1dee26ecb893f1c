// `usbsat saturate`: measure groups of drives that share a node (alone, 2, 4 at once) and name the link that
// limits them. The orchestration lives in src/analysis/saturate (saturate.hpp), the session shared with
// `load` in src/cli/load_session.hpp; this file is the command's linear steps.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <stop_token>

#include "load/buffer.hpp"
#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/safety.hpp"
#include "load/steady.hpp"
#include "report/saturate_report.hpp"
#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/saturate/saturate.hpp"
#include "src/cli/cmd_saturate.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_file.hpp"
#include "src/cli/history_record.hpp"
#include "src/cli/load_session.hpp"
#include "src/cli/saturate_input.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "src/cli/write_recheck.hpp"
#include "topology/base/utc_time.hpp"
#include "topology/scan/scan.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {
namespace {

constexpr std::string_view kNothingToMeasure =
    "usbsat saturate: no USB drives found: nothing to measure.\n"
    "To measure other block devices or files (non-USB enclosures, test beds), name the drives that share "
    "something:\n"
    "  usbsat saturate --group NAME=/dev/sdX,/dev/sdY[@CAP]   (CAP e.g. 40M or 400MB/s; repeat --group for "
    "more groups)\n";

/// Step 1's result: the settings (the job with --qd in it, validated once), the forced tolerance and the
/// declared groups; `error` is the usage error.
struct SaturateArgs {
  analysis::saturate::SaturateSettings settings;
  std::uint64_t buffer_limit = 0;
  std::optional<double> tolerance;
  std::vector<analysis::common::GroupSpec> specs;
  std::string error;
};

SaturateArgs parse_saturate_args(const SaturateOptions& o) {
  SaturateArgs a;
  auto bad = [&](std::string e) {
    a.error = std::move(e);
    return a;
  };
  auto& settings = a.settings;
  JobOptions job = o.job;
  settings.qd_given = o.job.qd != 0;
  if (!settings.qd_given) job.qd = analysis::saturate::kQueuedQueueDepth;  // the deepest a group may get
  auto parsed = parse_job(job);
  if (!parsed.error.empty()) return bad(parsed.error);
  settings.job = parsed.job;
  a.buffer_limit = parsed.buffer_limit;
  auto steady = load::parse_steady(o.steady);
  if (!steady.error.empty()) return bad(steady.error);
  settings.steady = steady.rule;
  // Phases that end when settled need no long ramp: a transient after it keeps the rate from settling.
  if (settings.steady && !o.ramp_given) settings.job.ramp = settings.steady->ramp;
  settings.repeat = o.repeat;
  settings.passes = {{settings.job.pattern, settings.job.block_size}};
  if (o.random_pass) settings.passes.push_back({load::Pattern::RandRead, 4096});
  if (!(o.tolerance >= 0 && o.tolerance <= 0.5))  // CLI11's range lets NaN through
    return bad("--tolerance " + std::to_string(o.tolerance) +
               " is out of range: give 0 (from the noise) to 0.5");
  if (o.tolerance > 0) a.tolerance = o.tolerance;

  std::string group_error;
  auto parsed_groups = analysis::common::parse_group_specs(o.groups, &group_error);
  if (!parsed_groups) return bad(group_error);
  a.specs = std::move(*parsed_groups);
  for (const auto& g : a.specs)
    if (auto e = named_twice_error(g.paths, "drive")) return bad("group '" + g.name + "': " + *e);
  if (!a.specs.empty() && !o.devices.empty())
    return bad("name the drives inside --group, not as extra arguments");
  return a;
}

/// Step 2 on this system: the USB drives grouped by the nodes they share. Returns an exit code when there is
/// nothing to measure here (already printed) or a named device is not a USB drive (usage error).
std::optional<int> plan_usb_drives(const SaturateOptions& o, const GlobalOptions& global,
                                   const SaturateArgs& a, const topology::Topology& t, const NoteFn& note,
                                   analysis::saturate::SaturatePlan& plan) {
  const auto usb = analysis::common::usb_drives_with_media(t);
  for (const auto& d : o.devices) {
    const bool found =
        std::any_of(usb.begin(), usb.end(), [&](const auto& u) { return d == u.name || d == u.devnode; });
    if (!found)
      return fail(global, kExitUsage, "saturate",
                  "'" + d + "' is not a USB drive; to measure any block device or file use --group NAME=" +
                      d + ",...");
  }
  if (usb.empty()) {
    // Nothing failed: there is just nothing to measure here. Exit 0 (src/README.md, "usbsat saturate").
    if (global.json)
      std::fputs(report::render_saturate_json(to_report(plan, a.settings, nullptr, &t)).c_str(), stdout);
    std::fputs(std::string(kNothingToMeasure).c_str(), stderr);
    return kExitOk;
  }
  plan = analysis::saturate::plan_topology(t, o.devices, a.settings.forced_qd());
  if (plan.groups.empty())
    note(plan.notes.empty() ? "no two USB drives share a node: nothing to measure (use --group to measure "
                              "drives you choose)"
                            : plan.notes.front() + ": nothing to measure");
  return std::nullopt;
}

/// Step 3: every group at the depth the engine really keeps in flight (sync: 1), said once on stderr.
void apply_engine_depth(const load::EngineChoice& engine, analysis::saturate::SaturatePlan& plan,
                        const NoteFn& note) {
  bool lowered = false;
  for (auto& g : plan.groups) {
    const unsigned qd = effective_queue_depth(engine, g.qd);
    if (qd == g.qd) continue;
    if (!lowered) note(lowered_depth_note(engine, g.qd));
    lowered = true;
    g.qd = qd;
    g.qd_reason = "the " + engine.name + " engine keeps one I/O in flight";
  }
}

/// The usage error when the I/O buffers of the largest phase of any group exceed the limit (the passes run
/// one after the other), nullopt when they fit.
std::optional<std::string> check_plan_buffers(const analysis::saturate::SaturatePlan& plan,
                                              const SaturateArgs& a) {
  for (const auto& g : plan.groups) {
    const unsigned at_once = g.levels.empty() ? 1u : *std::max_element(g.levels.begin(), g.levels.end());
    for (const auto& pass : a.settings.passes)
      if (auto e = load::check_buffer_memory(pass.block_size, g.qd, at_once, a.buffer_limit)) return e;
  }
  return std::nullopt;
}

/// Every drive of the plan once, in plan order (a drive may be in several groups).
std::vector<std::string> plan_paths(const analysis::saturate::SaturatePlan& plan) {
  std::vector<std::string> paths;
  for (const auto& g : plan.groups)
    for (const auto& d : g.drives)
      if (std::find(paths.begin(), paths.end(), d.path) == paths.end()) paths.push_back(d.path);
  return paths;
}

/// Step 4: open every drive once, read-only; for writing when `writing` (`--pattern write`), and only where
/// load would write: --write, every drive named by --allow-write and safe to write now (load::check_write).
/// One that cannot be opened is recorded and left out; the rest are measured. Returns the exit code when the
/// run is refused or no drive could be opened.
std::optional<int> open_saturate_targets(const SaturateOptions& o, const GlobalOptions& global,
                                         const std::vector<std::string>& paths, bool writing,
                                         const NoteFn& note, OpenedTargets& open) {
  if (writing)
    for (const auto& p : paths)
      if (const auto verdict = load::check_write(p, o.write, o.allow_write); !verdict.allowed)
        return fail(global, kExitRefused, "saturate", "refused: " + verdict.reason);
  open = open_targets(paths, writing, false, note);
  if (open.in_use) return fail(global, kExitRefused, "saturate", "refused: " + *open.in_use);
  if (open.targets.empty())
    return fail(global, kExitEnvironment, "saturate", "cannot run the load: no drive could be opened",
                as_diagnostics(open.diags));
  return std::nullopt;
}

/// The opened drives by label (their path), as measure() looks them up.
std::map<std::string, load::RunTarget> by_label(const std::vector<load::RunTarget>& opened) {
  std::map<std::string, load::RunTarget> out;
  for (const auto& t : opened) out.emplace(t.label, t);
  return out;
}

/// The phases' runner: load::run_load on `clock`.
analysis::saturate::PhaseRunner phase_runner(const load::Clock& clock) {
  return [&clock](const std::vector<load::RunTarget>& t, const load::RunConfig& c, std::stop_token st,
                  const load::SnapshotFn& f) { return load::run_load(t, c, st, clock, f); };
}

/// Step 6c: the report on stdout, as text or JSON.
void print_saturate_report(report::SaturateReport& r, const GlobalOptions& global) {
  r.style = terminal_for(kStdoutFd, global.no_color).style();
  const std::string out = global.json ? report::render_saturate_json(r) : report::render_saturate_text(r);
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
}

/// Step 6b: what the drives and the shared links did, into the history store (history_record.hpp); the
/// report says which capacities it remembered, or `note` why nothing was.
void remember_saturate(const GlobalOptions& global, const NoteFn& note, const topology::Topology& t,
                       const analysis::saturate::SaturatePlan& plan,
                       const analysis::saturate::SaturateSettings& settings,
                       const analysis::saturate::SaturateMeasurement& m,
                       const std::vector<GroupCapacity>& capacities, report::SaturateReport& r) {
  std::vector<analysis::saturate::MeasuredCapacity> measured;
  for (const auto& c : capacities) measured.push_back(c.capacity);
  const auto now = topology::utc_now(topology::UtcFormat::Seconds);
  if (auto problem = remember(global, saturate_additions(t, plan, settings, m, measured, now)))
    note("could not remember these measurements: " + *problem);
  else if (history_location(global).path)
    say_calibrated(r, capacities);
}

}  // namespace

void bind_saturate_options(CLI::App& sub, SaturateOptions& o) {
  sub.add_option("--group", o.groups,
                 "NAME=/dev/a,/dev/b,...[@CAP]: drives or files sharing one node, optional capacity (40M, "
                 "400MB/s; MB = 10^6 B); repeatable. Without it: the USB drives of this system")
      ->allow_extra_args(false);
  sub.add_option(
         "--pattern", o.job.pattern,
         "read|randread|write (write: with --write and --allow-write DEV for every drive; destroys data)")
      ->check(CLI::IsMember({"read", "randread", "write"}))
      ->capture_default_str();
  sub.add_option("--bs", o.job.bs, "Block size: 4k, 128k, 1m or bytes")->capture_default_str();
  sub.add_option("--qd", o.job.qd, "Queue depth per drive (default: 1 for BOT, 32 for UAS and unknown)")
      ->check(CLI::Range(1, 1024));
  sub.add_option("--runtime", o.job.runtime_s,
                 "Measured seconds per phase (with --steady: the most, a phase ends when settled)")
      ->capture_default_str();
  sub.add_option("--ramp", o.job.ramp_s,
                 "Seconds before each phase's measurement starts (excluded; with --steady default 0.5)")
      ->each([&o](const std::string&) { o.ramp_given = true; })
      ->capture_default_str();
  sub.add_option("--steady", o.steady,
                 "on|off|BOUND (e.g. 2%): end each phase when every drive's rate has settled within the "
                 "bound over 1.5 s (off: every phase measures --runtime)")
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
  sub.add_option("--max-buffer-memory", o.job.max_buffer_memory,
                 "Limit on the I/O buffers (bs x qd x drives at once); at most this machine's memory")
      ->capture_default_str();
  sub.add_flag("--write", o.write, "Allow --pattern write (destroys data on the drives!)");
  sub.add_option("--allow-write", o.allow_write,
                 "Drive that --pattern write may write, named exactly (repeatable; every drive measured)")
      ->allow_extra_args(false);
  sub.add_option("devices", o.devices, "Only these USB drives (sdb or /dev/sdb)");
}

static int run_saturate(const SaturateOptions& o, const GlobalOptions& global) {
  if (auto rc = refuse_recording(global, "saturate")) return *rc;
  const bool json = global.json;
  const NoteFn note = [&](const std::string& s) {
    if (!global.quiet)
      fmt::print(stderr, "usbsat saturate: {}\n", topology::escape_unprintable(s));  // paths are user text
  };
  auto usage = [&](const std::string& s) { return fail(global, kExitUsage, "saturate", s); };

  // 1. The job (with --qd) and the groups: parse and validate before anything is scanned or opened.
  auto a = parse_saturate_args(o);
  if (!a.error.empty()) return usage(a.error);
  auto& settings = a.settings;

  // 2. The plan: declared groups, or the USB drives of this system grouped by the nodes they share.
  analysis::saturate::SaturatePlan plan;
  std::optional<topology::ScanResult> scan;
  if (!a.specs.empty()) {
    plan = analysis::saturate::plan_declared(a.specs, settings.forced_qd());
  } else {
    scan = scan_for(global);
    if (auto rc = plan_usb_drives(o, global, a, scan->topology, note, plan)) return *rc;
  }
  const topology::Topology* topo = scan ? &scan->topology : nullptr;

  // 3. The engine: io_uring unless unavailable (then sync, with a one-line notice), and the depth it keeps.
  const auto engine = choose_run_engine(o.engine, note);
  settings.engine = engine.name;
  apply_engine_depth(engine, plan, note);
  if (auto e = check_plan_buffers(plan, a)) return usage(*e);

  if (o.dry_run || plan.groups.empty()) {
    auto r = to_report(plan, settings, nullptr, topo);
    std::fputs(plan.groups.empty() && json ? report::render_saturate_json(r).c_str()
                                           : report::render_saturate_plan(r, json).c_str(),
               stdout);
    return kExitOk;
  }

  // 4. Open every drive once (for writing only where `load` would write); a refusal stops here.
  const bool writing = load::writes(settings.job.pattern);
  OpenedTargets open;
  if (auto rc = open_saturate_targets(o, global, plan_paths(plan), writing, note, open)) return *rc;
  const auto targets = by_label(open.targets);

  // 5. Measure; SIGINT/SIGTERM stop promptly and the finished phases are still reported.
  analysis::saturate::SaturateMeasurement m;
  std::optional<std::string> unsafe;  // the write re-check's refusal during the run (write_recheck.hpp)
  const bool signalled = run_interruptible(global, [&](std::stop_token stop, const load::Clock& clock,
                                                       const StatusFn& status) {
    analysis::saturate::StepSnapshotFn on_snapshot;
    if (status)
      on_snapshot = [&](const analysis::saturate::StepInfo& st, const load::Snapshot& s) {
        const std::string label = st.what + (settings.passes.size() > 1 ? " " + st.pass : "");
        status(report::format_saturate_progress(st.group, label, st.index, st.count, s, clock.now_ns()));
      };
    const auto runner = phase_runner(clock);
    std::stop_source halt;
    const std::stop_callback relay(stop, [&] { halt.request_stop(); });
    const WriteRecheck recheck(writing ? plan_paths(plan) : std::vector<std::string>{}, o.allow_write, halt);
    m = analysis::saturate::measure(plan, targets, settings, runner, halt.get_token(), on_snapshot);
    unsafe = recheck.refusal();
  });
  const bool interrupted = signalled || m.interrupted;

  // 6. Judge each group and pass, remember what drives and shared links did (history_record.hpp), render.
  open.close();
  if (unsafe) return fail(global, kExitRefused, "saturate", "stopped the write load: " + *unsafe);
  std::vector<GroupCapacity> capacities;
  auto r = to_report(plan, settings, &m, topo, a.tolerance, &capacities);
  if (topo) remember_saturate(global, note, *topo, plan, settings, m, capacities, r);
  r.diagnostics = open.diags;
  r.interrupted = interrupted;
  print_saturate_report(r, global);

  if (interrupted) return kExitInterrupted;
  const bool failed = open.failed || std::any_of(m.failures.begin(), m.failures.end(),
                                                 [](const auto& f) { return !f.empty(); });
  return failed ? kExitPartial : kExitOk;
}

Runner configure_saturate(CLI::App& sub) {
  return bind_command<SaturateOptions>(sub, &bind_saturate_options, &run_saturate);
}

}  // namespace usbsat::cli
