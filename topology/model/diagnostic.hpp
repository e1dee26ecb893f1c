#pragma once
/// A problem with one device or one target, recorded as data while the work goes on (error tier b).
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

enum class Severity { Info, Warning, Error };
/// "info", "warning", "error": what every renderer, JSON document and recording writes (diagnostic.cpp holds
/// the one string table, both directions).
std::string_view to_string(Severity s);
/// The inverse of to_string(Severity); nullopt for anything else (a recording's "severity").
std::optional<Severity> parse_severity(std::string_view s);

struct Diagnostic {
  Severity severity = Severity::Warning;
  std::string where;    ///< syspath, device name or target the problem belongs to
  std::string message;  ///< one sentence, no trailing newline
  bool operator==(const Diagnostic&) const = default;
};

}  // namespace usbsat::topology
