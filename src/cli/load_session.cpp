#include "src/cli/load_session.hpp"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "load/buffer.hpp"
#include "load/errors.hpp"
#include "load/safety.hpp"
#include "report/line_printer.hpp"
#include "src/cli/signal_stop.hpp"
#include "src/cli/terminal.hpp"

namespace usbsat::cli {

ParsedJob parse_job(const JobOptions& o) {
  ParsedJob r;
  auto& j = r.job;
  auto bad = [&](std::string e) {
    r.error = std::move(e);
    return r;
  };
  const auto pattern = load::parse_pattern(o.pattern);
  const auto bs = load::parse_size(o.bs);
  const auto offset = load::parse_size(o.offset);
  const auto size = load::parse_size(o.size);
  if (!pattern) return bad("unknown pattern '" + o.pattern + "'");
  if (!bs || *bs == 0 || *bs > UINT32_MAX)
    return bad("bad block size '" + o.bs + "': give 512 to 64m, e.g. 4k or 128k");
  if (!offset) return bad("bad offset '" + o.offset + "': give a size such as 0, 1m or 4g");
  if (!size) return bad("bad size '" + o.size + "': give a size such as 0 (to the end), 1m or 4g");
  if (auto e = load::set_durations(j, o.runtime_s, o.ramp_s); !e.empty()) return bad(e);
  j.pattern = *pattern;
  j.block_size = static_cast<std::uint32_t>(*bs);
  j.queue_depth = o.qd;
  j.rwmix_read = o.rwmix;
  j.offset = *offset;
  j.size = *size;
  if (const auto errs = load::validate(j); !errs.empty()) return bad(errs.front());
  const auto limit = load::parse_buffer_limit(o.max_buffer_memory, load::physical_memory());
  if (!limit.error.empty()) return bad(limit.error);
  r.buffer_limit = limit.bytes;
  return r;
}

unsigned effective_queue_depth(const load::EngineChoice& engine, unsigned requested) {
  return engine.synchronous ? 1u : requested;
}

std::string lowered_depth_note(const load::EngineChoice& engine, unsigned requested) {
  return "the " + engine.name + " engine keeps one I/O in flight per target: queue depth " +
         std::to_string(effective_queue_depth(engine, requested)) + ", not " + std::to_string(requested);
}

load::EngineChoice choose_run_engine(std::string_view requested, const NoteFn& note) {
  auto e = load::choose_engine(requested);
  if (!e.notice.empty()) note(e.notice);
  return e;
}

std::optional<std::string> named_twice_error(std::span<const std::string> paths, std::string_view what) {
  const auto twice = load::find_named_twice(paths);
  if (!twice) return std::nullopt;
  const auto &a = paths[twice->first], &b = paths[twice->second];
  if (a == b) return a + " is named twice";
  return a + " and " + b + " are the same " + std::string(what) + " (named twice)";
}

BlockDevices check_block_devices(std::span<const std::string> paths) {
  BlockDevices r;
  for (const auto& p : paths) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(p, ec);
    if (ec) {
      r.error = "'" + p + "' does not exist: give a block device such as /dev/sdb";
      return r;
    }
    if (!load::is_block_device(real.string())) {
      r.error = "'" + p + "' is not a block device: give one such as /dev/sdb";
      return r;
    }
    r.paths.push_back(real.string());
  }
  if (auto e = named_twice_error(paths, "device")) r.error = *e;
  return r;
}

OpenedTargets open_targets(std::span<const std::string> paths, bool writing, bool buffered,
                           const NoteFn& note) {
  OpenedTargets r;
  for (const auto& t : paths) {
    // Block devices to be written are opened O_EXCL: that fails while anything (a mount, md, dm, another
    // O_EXCL user) holds the device, and keeps others off it for the run.
    const bool block = load::is_block_device(t);
    try {
      auto ot = load::open_target(
          t, {writing ? load::Access::ReadWrite : load::Access::ReadOnly, !buffered, writing && block});
      if (!ot.notice.empty()) {
        r.diags.push_back({"warning", t, ot.notice});
        note(t + ": " + ot.notice);
      }
      r.targets.push_back({t, ot.fd.get(), ot.info.size_bytes, ot.info.logical_block});
      r.opened.push_back(std::move(ot));
    } catch (const load::TargetError& e) {
      if (writing && block && e.error == EBUSY) {
        r.in_use = t + " is in use (exclusive open failed); refusing to write";
        return r;
      }
      r.diags.push_back({"error", t, e.reason});
      note(e.what());
      r.failed = true;
    }
  }
  return r;
}

bool run_interruptible(
    const GlobalOptions& g,
    const std::function<void(std::stop_token, const load::Clock&, const StatusFn&)>& body) {
  std::stop_source stop;
  const SignalStop signals(stop);
  const Terminal terminal = terminal_for(kStderrFd, g.no_color);
  const bool live = !g.json && !g.quiet && terminal.smart;
  report::LinePrinter printer(live, terminal.width);
  const load::Clock clock;
  StatusFn status;
  if (live)
    status = [&](const std::string& line) {
      std::fputs(printer.status(line).c_str(), stderr);
      std::fflush(stderr);
    };
  body(stop.get_token(), clock, status);
  std::fputs(printer.finish().c_str(), stderr);
  return signals.signalled();
}

}  // namespace usbsat::cli
