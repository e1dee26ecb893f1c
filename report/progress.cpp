#include "report/progress.hpp"

#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace usbsat::report {
namespace {

std::string_view basename(std::string_view p) {
  const auto slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

}  // namespace

std::string format_progress(const load::Snapshot& s, std::int64_t now_ns) {
  const double total = static_cast<double>(s.end_ns - s.start_ns) / 1e9;
  const double elapsed = std::clamp(static_cast<double>(now_ns - s.start_ns) / 1e9, 0.0, total);
  std::string out = fmt::format("[phase {}/{}] {:.1f}/{:.1f} s{}", s.phase + 1, s.phase_count, elapsed, total,
                                now_ns < s.measure_ns ? " ramp" : "");
  for (const auto& t : s.targets)
    out += fmt::format(" | {} {}", basename(t.label), topology::mbs_text(t.mbs, 1));
  return topology::terminal_safe(out);  // target names are user text
}

}  // namespace usbsat::report
