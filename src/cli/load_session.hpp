#pragma once
/// One load session for the commands that put load on drives or watch it (`load`, `saturate`, `top`), so
/// each step has one home and one set of messages: the job parsed and validated before anything is opened
/// (parse_job), the engine chosen with the queue depth it really keeps (choose_run_engine,
/// effective_queue_depth), targets named
/// (named_twice_error, check_block_devices) and opened (open_targets) once, and the run under
/// SIGINT/SIGTERM with a live status line (run_interruptible).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "load/clock.hpp"
#include "load/engine.hpp"
#include "load/job.hpp"
#include "load/runner.hpp"
#include "load/target.hpp"
#include "report/load_report.hpp"
#include "src/cli/command.hpp"

namespace usbsat::cli {

/// Says one line on stderr (the command's own prefix; nothing with -q).
using NoteFn = std::function<void(const std::string&)>;

/// The job options of `load` and `saturate`, as typed on the command line.
struct JobOptions {
  std::string pattern = "read";            ///< read|write|randread|randwrite|randrw
  std::string bs = "128k";                 ///< block size, "4k" / "128k" / "1m" / bytes
  unsigned qd = 1;                         ///< queue depth per target
  double runtime_s = 10;                   ///< measured seconds per phase
  double ramp_s = 1;                       ///< unmeasured seconds before each phase's window
  unsigned rwmix = 50;                     ///< randrw: percent reads
  std::string offset = "0";                ///< region start (size string)
  std::string size = "0";                  ///< region length (size string), 0 = to the end
  std::string max_buffer_memory = "256m";  ///< limit on bs × qd × targets at once (size string)
};

/// The job and the buffer limit; `error` is the first usage error, empty when both are good.
struct ParsedJob {
  load::JobSpec job;
  std::uint64_t buffer_limit = 0;
  std::string error;
};

/// Parse and validate `o` (load::validate, load::parse_buffer_limit) before anything is scanned or opened.
ParsedJob parse_job(const JobOptions& o);

/// The engine a run uses (load::choose_engine), its fallback notice (io_uring unavailable) said through
/// `note`. Throws load::LoadError for an unknown name.
load::EngineChoice choose_run_engine(std::string_view requested, const NoteFn& note);
/// The queue depth `engine` keeps in flight for `requested`: 1 for a synchronous engine (sync), whatever
/// --qd says. Pure.
unsigned effective_queue_depth(const load::EngineChoice& engine, unsigned requested);
/// What to say when effective_queue_depth() is below `requested`: "the sync engine keeps one I/O in flight
/// per target: queue depth 1, not 32". Pure.
std::string lowered_depth_note(const load::EngineChoice& engine, unsigned requested);

/// The usage error when two of `paths` name one target (load::find_named_twice: the same block device,
/// file or string), nullopt when none do. `what` names a target in the message ("target", "drive").
std::optional<std::string> named_twice_error(std::span<const std::string> paths, std::string_view what);

/// The paths of block devices to watch, each resolved (symlinks followed, "/dev/disk/by-id/x" → "/dev/sdb"),
/// or the usage error: one that does not exist, one that is not a block device (/dev/null, a file), or two
/// that name one device.
struct BlockDevices {
  std::vector<std::string> paths;
  std::string error;
};
BlockDevices check_block_devices(std::span<const std::string> paths);

/// The targets of one run, opened: `opened` owns the fds `targets` borrow, so keep it alive for the run.
struct OpenedTargets {
  std::vector<load::OpenedTarget> opened;
  std::vector<load::RunTarget> targets;       ///< those that opened, in the order given
  std::vector<report::LoadDiagnostic> diags;  ///< O_DIRECT notices (warning) and open failures (error)
  bool failed = false;                        ///< a target could not be opened (it is left out)
  std::optional<std::string> in_use;          ///< a block device to be written is held: refuse the run

  /// Release every target's lock and close it once the run is over, before the report is printed: whoever
  /// reads the report may start the next load at once, which must not find them still held (at exit the
  /// kernel closes stdout before the targets, and a ring may hold a target's file a while longer). `targets`
  /// keeps the labels; their fds are closed and must not be used again.
  void close() { opened.clear(); }
};
/// Open each of `paths` (O_DIRECT unless `buffered`; read-write and, for block devices, O_EXCL when
/// `writing`). A target that cannot be opened is recorded and left out, except a block device to be written
/// that something holds (`in_use`, and opening stops). `note` gets one line per notice or failure.
OpenedTargets open_targets(std::span<const std::string> paths, bool writing, bool buffered,
                           const NoteFn& note);

/// Shows one status line on stderr (empty when the run is not live).
using StatusFn = std::function<void(const std::string&)>;
/// Run `body` with SIGINT/SIGTERM turned into a stop request on its token, and a live status line on stderr
/// when stderr is a smart terminal and neither --json nor -q is given (else `status` is empty). The status
/// line is cleared when `body` returns. Returns true when a signal arrived.
bool run_interruptible(const GlobalOptions& g,
                       const std::function<void(std::stop_token, const load::Clock&, const StatusFn&)>& body);

}  // namespace usbsat::cli
