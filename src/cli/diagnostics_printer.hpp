#pragma once
/// The only place that turns diagnostics into stderr lines (G6): "usbsat: warning: <where>: <message>".
/// Errors always print, warnings unless --quiet, info only with --verbose.
#include <cstdio>
#include <span>
#include <string>

#include "src/cli/command.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::cli {

/// The lines print_diagnostics() would write, honouring verbosity. Pure.
std::string format_diagnostics(std::span<const topology::Diagnostic> diags, const GlobalOptions& opts);
/// Write format_diagnostics() to `out` (stderr in the commands).
void print_diagnostics(std::FILE* out, std::span<const topology::Diagnostic> diags,
                       const GlobalOptions& opts);
/// kExitPartial when any diagnostic is an error (results were still printed), else kExitOk.
int exit_code_for(std::span<const topology::Diagnostic> diags);

}  // namespace usbsat::cli
