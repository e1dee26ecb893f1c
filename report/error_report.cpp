#include "report/error_report.hpp"

#include "report/json_common.hpp"

namespace usbsat::report {

std::string render_error_json(const ErrorReport& e, std::span<const topology::Diagnostic> diagnostics) {
  Json doc;
  doc["error"] = Json{{"code", e.code}, {"kind", e.kind}, {"message", e.message}};
  doc["diagnostics"] = json_diagnostics(diagnostics);
  return dump_json(doc);
}

}  // namespace usbsat::report
