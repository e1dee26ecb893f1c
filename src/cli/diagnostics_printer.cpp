#include "src/cli/diagnostics_printer.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "src/cli/exit_codes.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {

std::string format_diagnostics(std::span<const topology::Diagnostic> diags, const GlobalOptions& opts) {
  std::string out;
  for (const auto& d : diags) {
    if (d.severity == topology::Severity::Info && !opts.verbose) continue;
    if (d.severity == topology::Severity::Warning && opts.quiet) continue;
    out += fmt::format("usbsat: {}: {}{}\n", topology::to_string(d.severity),
                       d.where.empty() ? "" : topology::escape_unprintable(d.where) + ": ",
                       topology::escape_unprintable(d.message));
  }
  return out;
}

void print_diagnostics(std::FILE* out, std::span<const topology::Diagnostic> diags,
                       const GlobalOptions& opts) {
  const auto text = format_diagnostics(diags, opts);
  std::fputs(text.c_str(), out);
}

int exit_code_for(std::span<const topology::Diagnostic> diags) {
  const bool error = std::any_of(diags.begin(), diags.end(),
                                 [](const auto& d) { return d.severity == topology::Severity::Error; });
  return error ? kExitPartial : kExitOk;
}

}  // namespace usbsat::cli
