// `usbsat load`: run a load job on block devices or files, in concurrency phases, and print the results.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "load/buffer.hpp"
#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/safety.hpp"
#include "load/steady.hpp"
#include "report/load_report.hpp"
#include "report/progress.hpp"
#include "src/cli/cmd_load.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_file.hpp"
#include "src/cli/history_record.hpp"
#include "src/cli/load_session.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/write_recheck.hpp"
#include "topology/base/utc_time.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {
namespace {

/// Step 1: the job, the phases and the memory they need, checked before anything is opened; the usage
/// error, or nullopt.
std::optional<std::string> check_load_job(const LoadOptions& o, const ParsedJob& parsed) {
  if (!parsed.error.empty()) return parsed.error;
  if (auto e = load::check_levels(o.concurrency)) return e;
  if (auto e = named_twice_error(o.targets, "target")) return e;
  std::size_t at_once = o.targets.size();  // the largest phase
  if (!o.concurrency.empty())
    at_once = std::min<std::size_t>(at_once, *std::max_element(o.concurrency.begin(), o.concurrency.end()));
  return load::check_buffer_memory(parsed.job.block_size, parsed.job.queue_depth, at_once,
                                   parsed.buffer_limit);
}

/// Step 3: writing must be asked for, every target named exactly, no block device mounted or a system disk,
/// no file backing a mounted or held loop device. The first refusal, or nullopt.
std::optional<std::string> refuse_writes(const LoadOptions& o) {
  for (const auto& t : o.targets) {
    const auto verdict = load::check_write(t, o.write, o.allow_write);
    if (!verdict.allowed) return "refused: " + verdict.reason;
  }
  return std::nullopt;
}

/// Step 6: the report on stdout, then the exit code (errors of targets also on stderr, as text).
int print_load_result(const GlobalOptions& global, const NoteFn& note, const report::LoadReportInput& in,
                      const OpenedTargets& open, bool interrupted) {
  const std::string text = global.json ? report::render_load_json(in) : report::render_load_text(in);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (interrupted) return kExitInterrupted;
  bool target_failed = open.failed;
  for (const auto& p : in.run->phases)
    for (const auto& t : p.per_target) target_failed |= t.error.has_value();
  if (target_failed && !global.json)
    for (const auto& p : in.run->phases)
      for (const auto& t : p.per_target)
        if (t.error) note(open.targets[t.target].label + ": " + *t.error);
  return target_failed ? kExitPartial : kExitOk;
}

/// Step 7: the USB drives of this system among `paths` (the run's targets), remembered with what they did.
/// Nothing to scan with the history off; a scan or a store that fails is said in one line, never an error.
void remember_load(const GlobalOptions& global, const NoteFn& note, const std::vector<std::string>& paths,
                   const load::JobSpec& job, const load::RunResult& result) {
  if (!history_location(global).path) return;
  try {
    const auto scan = scan_for(global);
    const auto now = topology::utc_now(topology::UtcFormat::Seconds);
    if (auto problem = remember(global, load_additions(scan.topology, paths, job, result, now)))
      note("could not remember these measurements: " + *problem);
  } catch (const std::exception& e) {
    note(std::string("could not remember these measurements: cannot scan this system: ") + e.what());
  }
}

}  // namespace

void bind_load_options(CLI::App& sub, LoadOptions& o) {
  sub.add_option("--pattern", o.job.pattern, "read|write|randread|randwrite|randrw")
      ->check(CLI::IsMember({"read", "write", "randread", "randwrite", "randrw"}))
      ->capture_default_str();
  sub.add_option("--bs", o.job.bs, "Block size: 4k, 128k, 1m or bytes")->capture_default_str();
  sub.add_option("--qd", o.job.qd, "Queue depth per target")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  sub.add_option("--runtime", o.job.runtime_s, "Measured seconds per phase")->capture_default_str();
  sub.add_option("--ramp", o.job.ramp_s, "Seconds before each phase's measurement starts (excluded)")
      ->capture_default_str();
  sub.add_option("--steady", o.steady,
                 "on|off|BOUND (e.g. 2%): end each phase when every target's rate has settled (fio's "
                 "steadystate); --runtime is then the most a phase measures")
      ->capture_default_str();
  sub.add_option("--concurrency", o.concurrency,
                 "Phases: 1 = each target alone, N = the first N targets at once (e.g. 1,2,4)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub.add_option("--engine", o.engine, load::engine_choices())
      ->check(CLI::IsMember(load::engine_names()))
      ->capture_default_str();
  sub.add_option("--rwmix", o.job.rwmix, "randrw: percent reads")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  sub.add_option("--offset", o.job.offset, "Start of the region (e.g. 1g)")->capture_default_str();
  sub.add_option("--size", o.job.size, "Length of the region; 0 = to the end")->capture_default_str();
  sub.add_flag("--write", o.write, "Allow writing (destroys data in the region!)");
  sub.add_option("--allow-write", o.allow_write,
                 "Block device or file that may be written, named exactly (repeatable)")
      ->allow_extra_args(false);
  sub.add_option("--max-buffer-memory", o.job.max_buffer_memory,
                 "Limit on the I/O buffers (bs x qd x targets at once); at most this machine's memory")
      ->capture_default_str();
  sub.add_flag("--buffered", o.buffered, "Do not use O_DIRECT");
  sub.add_flag(
      "--pin-cpus", o.pin_cpus,
      "Keep each worker on one CPU, the allowed CPUs in turn (steadier on an idle machine; under other "
      "load, drives that share a bus split it unevenly)");
  sub.add_option("targets", o.targets, "Block devices or regular files")->required();
}

static int run_load(const LoadOptions& o, const GlobalOptions& global) {
  if (auto rc = refuse_recording(global, "load")) return *rc;
  const NoteFn note = [&](const std::string& s) {
    if (!global.quiet)
      fmt::print(stderr, "usbsat: {}\n", topology::escape_unprintable(s));  // target names are user text
  };

  // 1. The job, the phases and the memory they need: parse and validate before anything is opened.
  auto parsed = parse_job(o.job);
  if (auto e = check_load_job(o, parsed)) return fail(global, kExitUsage, "load", *e);
  const auto steady = load::parse_steady(o.steady);
  if (!steady.error.empty()) return fail(global, kExitUsage, "load", steady.error);

  // 2. The engine: io_uring unless unavailable (then sync, with a one-line notice), and the queue depth it
  //    really keeps in flight (the job says what ran).
  const auto engine = choose_run_engine(o.engine, note);
  auto& job = parsed.job;
  if (const unsigned qd = effective_queue_depth(engine, job.queue_depth); qd != job.queue_depth) {
    note(lowered_depth_note(engine, job.queue_depth));
    job.queue_depth = qd;
  }

  // 3. Safety: any refusal refuses the whole run before a single target is opened for writing.
  const bool writing = load::writes(job.pattern);
  if (writing)
    if (auto refusal = refuse_writes(o)) return fail(global, kExitRefused, "load", *refusal);

  // 4. Open the targets (block devices to be written exclusively).
  auto open = open_targets(o.targets, writing, o.buffered, note);
  if (open.in_use) return fail(global, kExitRefused, "load", "refused: " + *open.in_use);
  if (open.targets.empty())
    return fail(global, kExitEnvironment, "load", "cannot run the load: no target could be opened",
                as_diagnostics(open.diags));

  // 5. Run the phases; SIGINT/SIGTERM stop them promptly and the partial results still print.
  load::RunConfig cfg;
  cfg.job = job;
  cfg.engine = engine.name;
  cfg.phases = load::plan_phases(open.targets.size(), o.concurrency);
  cfg.pin_workers = o.pin_cpus;
  cfg.steady = steady.rule;
  load::RunResult result;
  std::optional<std::string> unsafe;  // the write re-check's refusal during the run (write_recheck.hpp)
  const bool signalled =
      run_interruptible(global, [&](std::stop_token stop, const load::Clock& clock, const StatusFn& status) {
        load::SnapshotFn on_snapshot;
        if (status)
          on_snapshot = [&](const load::Snapshot& s) { status(report::format_progress(s, clock.now_ns())); };
        std::stop_source halt;
        const std::stop_callback relay(stop, [&] { halt.request_stop(); });
        const WriteRecheck recheck(writing ? o.targets : std::vector<std::string>{}, o.allow_write, halt);
        result = load::run_load(open.targets, cfg, halt.get_token(), clock, on_snapshot);
        unsafe = recheck.refusal();
      });

  // 6. Render, then remember what the USB drives among the targets did (history_record.hpp).
  open.close();
  if (unsafe) return fail(global, kExitRefused, "load", "stopped the write load: " + *unsafe);
  report::LoadReportInput in{engine.name, job, {}, &result, open.diags, steady.rule};
  for (const auto& t : open.targets) in.targets.push_back(t.label);
  const int rc = print_load_result(global, note, in, open, signalled || result.interrupted);
  remember_load(global, note, in.targets, job, result);
  return rc;
}

Runner configure_load(CLI::App& sub) {
  return bind_command<LoadOptions>(sub, &bind_load_options, &run_load);
}

}  // namespace usbsat::cli
