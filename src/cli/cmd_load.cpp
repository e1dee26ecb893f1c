// `usbsat load`: run a load job on block devices or files, in concurrency phases, and print the results.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stop_token>
#include <thread>

#include "load/buffer.hpp"
#include "load/engine.hpp"
#include "load/errors.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/safety.hpp"
#include "load/target.hpp"
#include "report/line_printer.hpp"
#include "report/load_report.hpp"
#include "report/progress.hpp"
#include "src/cli/cmd_load.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/signal_stop.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/escape.hpp"

namespace usbsat::cli {
namespace {

/// The job from the options, or a usage error message.
struct JobOrError {
  load::JobSpec job;
  std::string error;
};

JobOrError make_job(const LoadOptions& o) {
  JobOrError r;
  auto& j = r.job;
  const auto pattern = load::parse_pattern(o.pattern);
  const auto bs = load::parse_size(o.bs);
  const auto offset = load::parse_size(o.offset);
  const auto size = load::parse_size(o.size);
  if (!pattern) return {j, "unknown pattern '" + o.pattern + "'"};
  if (!bs || *bs > UINT32_MAX) return {j, "bad block size '" + o.bs + "': give 512 to 64m, e.g. 4k or 128k"};
  if (!offset) return {j, "bad offset '" + o.offset + "': give a size such as 0, 1m or 4g"};
  if (!size) return {j, "bad size '" + o.size + "': give a size such as 0 (to the end), 1m or 4g"};
  if (auto e = load::set_durations(j, o.runtime_s, o.ramp_s); !e.empty()) return {j, e};
  j.pattern = *pattern;
  j.block_size = static_cast<std::uint32_t>(*bs);
  j.queue_depth = o.qd;
  j.rwmix_read = o.rwmix;
  j.offset = *offset;
  j.size = *size;
  if (const auto errs = load::validate(j); !errs.empty()) r.error = errs.front();
  return r;
}

}  // namespace

void bind_load_options(CLI::App& sub, LoadOptions& o) {
  sub.add_option("--pattern", o.pattern, "read|write|randread|randwrite|randrw")
      ->check(CLI::IsMember({"read", "write", "randread", "randwrite", "randrw"}))
      ->capture_default_str();
  sub.add_option("--bs", o.bs, "Block size: 4k, 128k, 1m or bytes")->capture_default_str();
  sub.add_option("--qd", o.qd, "Queue depth per target")->check(CLI::Range(1, 1024))->capture_default_str();
  sub.add_option("--runtime", o.runtime_s, "Measured seconds per phase")->capture_default_str();
  sub.add_option("--ramp", o.ramp_s, "Seconds before each phase's measurement starts (excluded)")
      ->capture_default_str();
  sub.add_option("--concurrency", o.concurrency,
                 "Phases: 1 = each target alone, N = the first N targets at once (e.g. 1,2,4)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub.add_option("--engine", o.engine, load::engine_choices())
      ->check(CLI::IsMember(load::engine_names()))
      ->capture_default_str();
  sub.add_option("--rwmix", o.rwmix, "randrw: percent reads")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  sub.add_option("--offset", o.offset, "Start of the region (e.g. 1g)")->capture_default_str();
  sub.add_option("--size", o.size, "Length of the region; 0 = to the end")->capture_default_str();
  sub.add_flag("--write", o.write, "Allow writing (destroys data in the region!)");
  sub.add_option("--allow-write", o.allow_write,
                 "Block device or file that may be written, named exactly (repeatable)")
      ->allow_extra_args(false);
  sub.add_option("--max-buffer-memory", o.max_buffer_memory,
                 "Limit on the I/O buffers (bs x qd x targets at once); at most this machine's memory")
      ->capture_default_str();
  sub.add_flag("--buffered", o.buffered, "Do not use O_DIRECT");
  sub.add_option("targets", o.targets, "Block devices or regular files")->required();
}

static int run_load(const LoadOptions& o, const GlobalOptions& global) {
  if (auto rc = refuse_recording(global, "load")) return *rc;
  const bool show_notes = !global.quiet;
  auto note = [&](const std::string& s) {
    if (show_notes) fmt::print(stderr, "usbsat: {}\n", topology::text_safe(s));  // target names are user text
  };
  auto usage = [&](const std::string& s) { return fail(global, kExitUsage, "load", s); };

  // 1. The job, the phases and the memory they need: parse and validate before anything is opened.
  auto [job, job_error] = make_job(o);
  if (!job_error.empty()) return usage(job_error);
  if (auto e = load::check_levels(o.concurrency)) return usage(*e);
  if (auto twice = load::find_named_twice(o.targets))
    return usage(o.targets[twice->first] == o.targets[twice->second]
                     ? o.targets[twice->first] + " is named twice"
                     : o.targets[twice->first] + " and " + o.targets[twice->second] +
                           " are the same target (named twice)");
  const auto limit = load::parse_buffer_limit(o.max_buffer_memory, load::physical_memory());
  if (!limit.error.empty()) return usage(limit.error);
  std::size_t at_once = o.targets.size();  // the largest phase
  if (!o.concurrency.empty())
    at_once = std::min<std::size_t>(at_once, *std::max_element(o.concurrency.begin(), o.concurrency.end()));
  if (auto e = load::check_buffer_memory(job.block_size, job.queue_depth, at_once, limit.bytes))
    return usage(*e);

  // 2. The engine: io_uring unless unavailable (then sync, with a one-line notice).
  const auto engine = load::choose_engine(o.engine);
  if (!engine.notice.empty()) note(engine.notice);

  // 3. Safety: writing must be asked for, every target named exactly, no block device mounted or a system
  //    disk, no file backing a mounted or held loop device. Any refusal refuses the whole run before a single
  //    target is opened for writing.
  const bool writing = load::writes(job.pattern);
  if (writing) {
    for (const auto& t : o.targets) {
      const auto verdict = load::check_write(t, o.write, o.allow_write);
      if (!verdict.allowed) return fail(global, kExitRefused, "load", "refused: " + verdict.reason);
    }
  }

  // 4. Open the targets. Block devices to be written are opened O_EXCL: that fails while anything (a mount,
  //    md, dm, another O_EXCL user) holds the device, and keeps others off it for the run.
  std::vector<load::OpenedTarget> opened;
  std::vector<report::LoadDiagnostic> diags;
  std::vector<load::RunTarget> run_targets;
  bool open_failed = false;
  for (const auto& t : o.targets) {
    const bool block = load::is_block_device(t);
    try {
      auto ot = load::open_target(
          t, {writing ? load::Access::ReadWrite : load::Access::ReadOnly, !o.buffered, writing && block});
      if (!ot.notice.empty()) {
        diags.push_back({"warning", t, ot.notice});
        note(t + ": " + ot.notice);
      }
      run_targets.push_back({t, ot.fd.get(), ot.info.size_bytes, ot.info.logical_block});
      opened.push_back(std::move(ot));
    } catch (const load::TargetError& e) {
      if (writing && block && e.error == EBUSY)
        return fail(global, kExitRefused, "load",
                    "refused: " + t + " is in use (exclusive open failed); refusing to write");
      diags.push_back({"error", t, e.reason});
      note(e.what());
      open_failed = true;
    }
  }
  if (run_targets.empty())
    return fail(global, kExitEnvironment, "load", "cannot run the load: no target could be opened",
                as_diagnostics(diags));

  // 5. Run the phases; SIGINT/SIGTERM stop them promptly and the partial results still print.
  load::RunConfig cfg;
  cfg.job = job;
  cfg.engine = engine.name;
  cfg.phases = load::plan_phases(run_targets.size(), o.concurrency);
  std::stop_source stop;
  load::RunResult result;
  bool interrupted = false;
  {
    SignalStop signals(stop);
    const Terminal progress_terminal = terminal_for(kStderrFd, global.no_color);
    const bool live = !global.json && !global.quiet && progress_terminal.smart;
    report::LinePrinter printer(live, progress_terminal.width);
    load::SnapshotFn on_snapshot;
    const load::Clock clock;
    if (live)
      on_snapshot = [&](const load::Snapshot& s) {
        std::fputs(printer.status(report::format_progress(s, clock.now_ns())).c_str(), stderr);
        std::fflush(stderr);
      };
    result = load::run_load(run_targets, cfg, stop.get_token(), clock, on_snapshot);
    std::fputs(printer.finish().c_str(), stderr);
    interrupted = signals.signalled() || result.interrupted;
  }

  // 6. Render.
  report::LoadReportInput in{engine.name, job, {}, &result, diags};
  for (const auto& t : run_targets) in.targets.push_back(t.label);
  const std::string text = global.json ? report::render_load_json(in) : report::render_load_text(in);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);

  if (interrupted) return kExitInterrupted;
  bool target_failed = open_failed;
  for (const auto& p : result.phases)
    for (const auto& t : p.per_target) target_failed |= t.error.has_value();
  if (target_failed && !global.json)
    for (const auto& p : result.phases)
      for (const auto& t : p.per_target)
        if (t.error) note(run_targets[t.target].label + ": " + *t.error);
  return target_failed ? kExitPartial : kExitOk;
}

Runner configure_load(CLI::App& sub) {
  return bind_command<LoadOptions>(sub, &bind_load_options, &run_load);
}

}  // namespace usbsat::cli
