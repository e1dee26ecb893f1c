// `usbsat top` frames: a table per interval, or JSON Lines.
#include "report/top_report.hpp"
#include "topology/base/text.hpp"

#include <fmt/format.h>

#include "report/json_common.hpp"
#include "report/table.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {

std::string render_top_text(const TopFrame& f, const TextStyle& style) {
  std::string out = fmt::format("usbsat top: sample {}, {:.2f} s{}{}\n\n", f.sample, f.interval_s,
                                f.time.empty() ? "" : ", ", f.time);
  std::vector<std::vector<std::string>> rows;
  for (const auto& rate : f.rows) {
    const auto& r = rate.node;
    const std::string util = rate.utilisation ? fmt::format("{:.0f}%", *rate.utilisation * 100) : "-";
    rows.push_back(
        {topology::display_string(r.label), r.kind, fmt::format("{:.1f}", rate.mbs),
         fmt::format("{:.1f}", rate.read_mbs), fmt::format("{:.1f}", rate.write_mbs),
         r.capacity ? fmt::format("{:.1f}", r.capacity->mbs()) : "-",
         rate.bottleneck ? paint(util + " <- bottleneck", Color::Warning, style) : util,
         topology::display_string(topology::join(r.devices, ",")) +
             (rate.missing.empty() ? ""
                                   : " (gone or unreadable: " + topology::join(rate.missing, ",") + ")")});
  }
  out += render_table({"NODE", "KIND", "MB/S", "READ", "WRITE", "CAPACITY", "UTIL", "DEVICES"}, rows,
                      {style.width, {0}});
  if (f.rows.empty()) out += "no USB drives and no --group: nothing to measure\n";
  return out;
}

std::string render_top_json(const TopFrame& f) {
  Json rows = Json::array();
  for (const auto& r : f.rows)
    rows.push_back(Json{{"id", r.node.id},
                        {"kind", r.node.kind},
                        {"label", r.node.label},
                        {"devices", r.node.devices},
                        {"mbs", r.mbs},
                        {"read_mbs", r.read_mbs},
                        {"write_mbs", r.write_mbs},
                        {"capacity_mbs", r.node.capacity ? Json(r.node.capacity->mbs()) : Json(nullptr)},
                        {"utilisation", opt(r.utilisation)},
                        {"bottleneck", r.bottleneck},
                        {"missing", r.missing}});
  return dump_json_line(Json{{"event", "top"},
                             {"time", f.time.empty() ? Json(nullptr) : Json(f.time)},
                             {"sample", f.sample},
                             {"interval_s", f.interval_s},
                             {"nodes", std::move(rows)}});
}

}  // namespace usbsat::report
