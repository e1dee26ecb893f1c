#pragma once
/// A problem with one device or one target, recorded as data while the work goes on (error tier b).
#include <string>

namespace usbsat::topology {

enum class Severity { Info, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Warning;
  std::string where;    ///< syspath, device name or target the problem belongs to
  std::string message;  ///< one sentence, no trailing newline
  bool operator==(const Diagnostic&) const = default;
};

}  // namespace usbsat::topology
