#include "report/doctor_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string label(FindingSeverity s, const TextStyle& style) {
  switch (s) {
    case FindingSeverity::Info:
      return paint("INFO", Color::Info, style);
    case FindingSeverity::Warning:
      return paint("WARNING", Color::Warning, style);
    case FindingSeverity::Problem:
      return paint("PROBLEM", Color::Problem, style);
  }
  return "INFO";
}

/// Append `raw` with every line indented by `indent` (multi-line fixes keep their command lines intact),
/// terminal-safe: device strings inside a message never reach the terminal raw.
void append_indented(fmt::memory_buffer& out, std::string_view raw, std::string_view indent) {
  const std::string safe = topology::terminal_safe(raw);
  const std::string_view text = safe;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    const auto line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    fmt::format_to(std::back_inserter(out), "{}{}\n", indent, line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
}

}  // namespace

std::string render_doctor_text(const DoctorReportInput& in) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  const std::string checked =
      fmt::format("checked {} on {}", plural(in.drives_checked, "USB drive", "USB drives"),
                  plural(in.controllers_checked, "USB controller", "USB controllers"));
  if (in.findings.empty()) {
    fmt::format_to(it, "usbsat doctor: {}: no findings, nothing to fix.\n", checked);
    return fmt::to_string(out);
  }
  std::size_t counts[3] = {0, 0, 0};
  for (const auto& f : in.findings) ++counts[static_cast<int>(f.severity)];
  std::vector<std::string> parts;
  if (counts[2]) parts.push_back(plural(counts[2], "problem", "problems"));
  if (counts[1]) parts.push_back(plural(counts[1], "warning", "warnings"));
  if (counts[0]) parts.push_back(fmt::format("{} info", counts[0]));
  fmt::format_to(it, "usbsat doctor: {}: {}\n", checked, fmt::join(parts, ", "));

  for (const auto& f : in.findings) {
    std::vector<std::string> devices;
    for (const auto& d : f.devices) devices.push_back(topology::escape_unprintable(d));
    fmt::format_to(it, "\n{} {}", label(f.severity, in.style), topology::escape_unprintable(f.id));
    if (!devices.empty()) fmt::format_to(it, ": {}", fmt::join(devices, ", "));
    fmt::format_to(it, "\n");
    append_indented(out, f.message, "  ");
    if (!f.fix.empty()) {
      fmt::format_to(it, "  Fix:\n");
      append_indented(out, f.fix, "    ");
    }
    if (!f.evidence.empty()) {
      std::vector<std::pair<std::string, std::string>> evidence;
      std::size_t width = 0;
      for (const auto& [k, v] : f.evidence) {
        evidence.emplace_back(topology::escape_unprintable(k), topology::escape_unprintable(v));
        width = std::max(width, evidence.back().first.size());
      }
      fmt::format_to(it, "  Evidence:\n");
      for (const auto& [k, v] : evidence) fmt::format_to(it, "    {:<{}}  {}\n", k, width, v);
    }
  }
  return fmt::to_string(out);
}

Json json_finding(const Finding& f) {
  Json ev = Json::object();
  for (const auto& [k, v] : f.evidence) ev[k] = v;
  return Json{{"id", f.id},           {"severity", to_string(f.severity)},
              {"devices", f.devices}, {"evidence", std::move(ev)},
              {"message", f.message}, {"fix", f.fix}};
}

std::string render_doctor_json(const DoctorReportInput& in) {
  Json doc = Json::object();
  doc["findings"] = Json::array();
  for (const auto& f : in.findings) doc["findings"].push_back(json_finding(f));
  doc["diagnostics"] = json_diagnostics(in.diagnostics);
  doc["checked"] = Json{{"controllers", in.controllers_checked}, {"drives", in.drives_checked}};
  const auto worst = worst_severity(in.findings);
  doc["worst"] = worst ? Json(to_string(*worst)) : Json(nullptr);
  return dump_json(doc);
}

}  // namespace usbsat::report
