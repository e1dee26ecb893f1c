#pragma once
/// The one way a command fails (exit codes 2 usage, 3 environment, 5 refused): "usbsat <who>: <message>" on
/// stderr, and with --json also the error document (report/error_report.hpp) on stdout, so a script never
/// reads an empty stdout without knowing why. And the one check that the output really was written.
#include <cstdio>
#include <span>
#include <string_view>
#include <vector>

#include "report/load_report.hpp"
#include "src/cli/command.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::cli {

/// Print the failure and return `code`. `who` is "load", "saturate"… ("" for usbsat itself).
int fail(const GlobalOptions& g, int code, std::string_view who, std::string_view message,
         std::span<const topology::Diagnostic> diagnostics = {});

/// Only the error document on stdout (for usage errors whose text parse_args already produced).
void print_error_json(int code, std::string_view message,
                      std::span<const topology::Diagnostic> diagnostics = {});

/// The load/saturate per-target diagnostics in the shape every other command uses (where = the target).
std::vector<topology::Diagnostic> as_diagnostics(std::span<const report::LoadDiagnostic> d);

/// After a command ran: flush `out` and check that nothing written to it was lost (a full disk, a closed
/// pipe end, /dev/full). On failure prints "usbsat: cannot write the output: <reason>" on `err` and returns
/// kExitEnvironment (3); else returns `rc` unchanged.
int check_output(std::FILE* out, std::FILE* err, int rc);

}  // namespace usbsat::cli
