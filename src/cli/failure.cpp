#include "src/cli/failure.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "report/error_report.hpp"
#include "src/cli/exit_codes.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {

int fail(const GlobalOptions& g, int code, std::string_view who, std::string_view message,
         std::span<const topology::Diagnostic> diagnostics) {
  const std::string prefix = who.empty() ? "usbsat" : fmt::format("usbsat {}", who);
  fmt::print(stderr, "{}: {}\n", prefix, topology::escape_unprintable(message));
  if (g.json) print_error_json(code, message, diagnostics);
  return code;
}

void print_error_json(int code, std::string_view message, std::span<const topology::Diagnostic> diagnostics) {
  const std::string doc =
      report::render_error_json({code, std::string(exit_kind(code)), std::string(message)}, diagnostics);
  std::fputs(doc.c_str(), stdout);
}

std::vector<topology::Diagnostic> as_diagnostics(std::span<const report::LoadDiagnostic> d) {
  std::vector<topology::Diagnostic> out;
  for (const auto& x : d) {
    const auto severity = x.severity == "error"  ? topology::Severity::Error
                          : x.severity == "info" ? topology::Severity::Info
                                                 : topology::Severity::Warning;
    out.push_back({severity, x.target, x.message});
  }
  return out;
}

int check_output(std::FILE* out, std::FILE* err, int rc) {
  errno = 0;
  const bool flushed = std::fflush(out) == 0;
  const int saved = errno;
  if (flushed && !std::ferror(out)) return rc;
  fmt::print(err, "usbsat: cannot write the output: {}\n",
             saved ? std::strerror(saved) : "a write to standard output failed");
  return kExitEnvironment;
}

}  // namespace usbsat::cli
