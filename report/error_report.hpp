#pragma once
/// The JSON document a command prints on stdout instead of its result when it fails with --json (exit codes
/// 2 usage, 3 environment, 5 refused), so a script reads why instead of an empty stdout:
///   {"error":{"code":2,"kind":"usage","message":"…"},"diagnostics":[{"severity","where","message"}…]}
#include <span>
#include <string>
#include <string_view>

#include "topology/model/diagnostic.hpp"

namespace usbsat::report {

/// What failed: the exit code, its kind ("usage", "environment", "refused"; "error" for other codes) and
/// one sentence without the "usbsat <command>:" prefix.
struct ErrorReport {
  int code = 1;
  std::string kind;
  std::string message;
};

/// The error document. Pure; the message and diagnostics are JSON-escaped by dump_json.
std::string render_error_json(const ErrorReport& e, std::span<const topology::Diagnostic> diagnostics);

}  // namespace usbsat::report
