#pragma once
/// Pure renderers for `usbsat doctor`: human text and JSON over the same input (G14).
#include <cstddef>
#include <span>
#include <string>

#include "report/finding.hpp"
#include "report/json_common.hpp"
#include "report/style.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::report {

/// What the doctor renderers show. Spans borrow from the caller for the duration of the call.
struct DoctorReportInput {
  std::span<const Finding> findings;  ///< already in presentation order
  std::span<const topology::Diagnostic>
      diagnostics;  ///< scan problems (JSON only; src/ prints them on stderr)
  std::size_t controllers_checked = 0;
  std::size_t drives_checked = 0;  ///< USB mass-storage devices looked at
  TextStyle style{};               ///< text: colour the severities (PROBLEM red, WARNING yellow, INFO cyan)
};

/// Text: a summary line, then one block per finding (severity, id, devices, message, fix, evidence).
/// Says "no findings" explicitly when there are none.
std::string render_doctor_text(const DoctorReportInput& in);

/// One finding as JSON: {"id","severity","devices","evidence":{...},"message","fix"} (also in `watch
/// --json`).
Json json_finding(const Finding& f);

/// JSON: {"findings":[{"id","severity","devices","evidence":{...},"message","fix"}],"diagnostics":[...],
/// "checked":{"controllers":N,"drives":M},"worst":"problem"|null}; evidence keys keep their order; 2-space
/// indentation, one trailing newline.
std::string render_doctor_json(const DoctorReportInput& in);

}  // namespace usbsat::report
