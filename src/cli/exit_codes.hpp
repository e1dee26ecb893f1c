#pragma once
#include <optional>
#include <string_view>

#include "report/finding.hpp"

/// Process exit codes of usbsat (documented in README "Exit codes").
namespace usbsat {

enum ExitCode : int {
  kExitOk = 0,            ///< success; doctor: no finding above info
  kExitFailure = 1,       ///< an unexpected internal error
  kExitUsage = 2,         ///< bad command line (also -o '' or -o DIR: output_file.hpp)
  kExitEnvironment = 3,   ///< the environment is unusable: sysfs unreadable, no target opens, no I/O engine
                          ///< works, the output cannot be written (stdout or -o on a full disk, /dev/full),
                          ///< or the --from recording cannot be used (missing, not JSON, newer version,
                          ///< bad keys)
  kExitPartial = 4,       ///< results printed, but some device or target failed (see diagnostics)
  kExitRefused = 5,       ///< a safety check refused the operation (writing to a mounted/in-use/system disk)
  kExitWarnings = 10,     ///< doctor: the worst finding is a warning
  kExitProblems = 11,     ///< doctor: the worst finding is a problem
  kExitInterrupted = 130  ///< SIGINT/SIGTERM; partial results were printed
};

/// "usage" (2), "environment" (3), "refused" (5), else "error": the `kind` of the --json error document.
std::string_view exit_kind(int code);

/// `usbsat doctor`'s exit code from the worst finding: 0 (none or info), 10 (warning), 11 (problem).
int doctor_exit_code(std::optional<report::FindingSeverity> worst);

}  // namespace usbsat
