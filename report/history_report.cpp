#include "report/history_report.hpp"

#include <fmt/format.h>

#include "report/json_common.hpp"
#include "report/table.hpp"
#include "topology/base/text.hpp"
#include "topology/history/store_json.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

/// Measurements shown per drive in the text (the JSON has them all).
constexpr std::size_t kShownPerDrive = 5;

std::string drives_table(const history::Store& s, const TextStyle& style) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : s.drives) {
    const std::string who = fmt::format("{} {}", d.vid_pid, d.model);
    std::size_t shown = 0;
    for (auto it = d.measurements.rbegin(); it != d.measurements.rend() && shown < kShownPerDrive;
         ++it, ++shown)
      rows.push_back({shown == 0 ? who : "", it->device, it->date, history::job_text(*it),
                      fmt::format("{:.1f}", it->mbs), fmt::format("{:.0f}", it->iops),
                      history::link_text(*it)});
    if (d.measurements.size() > kShownPerDrive)
      rows.push_back(
          {"", "", fmt::format("({} older)", d.measurements.size() - kShownPerDrive), "", "", "", ""});
  }
  return render_table({"drive", "as", "measured", "job", "MB/s", "IOPS", "where"}, rows,
                      {style.width > 2 ? style.width - 2 : 0, {0}});
}

}  // namespace

std::string render_history_json(const HistoryReportInput& in) {
  Json j = Json::object();
  j["path"] = opt(in.path);
  j["enabled"] = in.path.has_value();
  j["problem"] = opt(in.problem);
  const auto doc = history::to_json(in.store ? *in.store : history::Store{});
  for (auto it = doc.begin(); it != doc.end(); ++it) j[it.key()] = it.value();
  return dump_json(j);
}

std::string render_history_text(const HistoryReportInput& in) {
  if (!in.path) return fmt::format("usbsat remembers nothing: the history is off ({}).\n", in.why_off);
  std::string out = fmt::format("History: {}", *in.path);
  if (in.problem) return out + fmt::format("\n  not used: {}\n", *in.problem);
  const auto& s = in.store ? *in.store : history::Store{};
  out += fmt::format(" ({} drive{}, {} measured link{})\n", s.drives.size(), s.drives.size() == 1 ? "" : "s",
                     s.resources.size(), s.resources.size() == 1 ? "" : "s");
  if (s.drives.empty() && s.resources.empty())
    return out + "\n  nothing measured yet: `usbsat load` and `usbsat saturate` add to it\n";
  if (!s.drives.empty()) {
    out += "\n";
    const std::string table = drives_table(s, in.style);
    for (std::size_t b = 0; b < table.size();) {
      const auto e = table.find('\n', b);
      out += "  " + table.substr(b, e - b + 1);
      b = e == std::string::npos ? table.size() : e + 1;
    }
  }
  if (!s.resources.empty()) out += "\nMeasured capacities (plan, doctor, report and export use them):\n";
  for (const auto& r : s.resources)
    out += fmt::format("  {}: {}{} ({}), measured {} with {}\n", r.label, r.at_least ? "at least " : "",
                       topology::mbs_text(r.measured_mbs),
                       r.model_mbs ? "model " + topology::mbs_text(*r.model_mbs) : "not limited in the model",
                       r.date.substr(0, 10), topology::join(r.drives, ", "));
  return topology::terminal_safe(out);
}

}  // namespace usbsat::report
