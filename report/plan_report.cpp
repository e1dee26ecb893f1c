#include "report/plan_report.hpp"

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "report/table.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

/// A figure for the MB/s columns, one decimal: "400.0".
std::string mbs(double v) {
  return topology::mbs_figure(v, 1);
}
/// A rate in the plan's sentences, one decimal as in its tables: "400.0 MB/s".
std::string rate(double v) {
  return topology::mbs_text(v, 1);
}
/// JSON rates rounded to 0.1 MB/s so documents do not carry float noise.
double round1(double v) {
  return static_cast<double>(static_cast<long long>(v * 10 + (v < 0 ? -0.5 : 0.5))) / 10;
}

Json json_bottleneck(const std::optional<PlanBottleneck>& b) {
  if (!b) return nullptr;
  return Json{{"node", b->node},
              {"kind", b->kind},
              {"capacity_mbs", round1(b->capacity_mbs)},
              {"label", b->label},
              {"capacity_basis", opt(b->capacity_basis)}};
}

Json json_predict(const PredictInput& in) {
  Json drives = Json::array();
  for (const auto& d : in.drives)
    drives.push_back(Json{{"dev", d.dev},
                          {"where", d.where},
                          {"demand_mbs", round1(d.demand_mbs)},
                          {"demand_source", d.demand_source},
                          {"demand_basis", d.demand_basis},
                          {"predicted_mbs", round1(d.predicted_mbs)},
                          {"bottleneck", json_bottleneck(d.bottleneck)},
                          {"published", opt(d.published)}});
  return Json{{"drives", drives},
              {"aggregate_mbs", round1(in.aggregate_mbs)},
              {"max_flow_mbs", round1(in.max_flow_mbs)},
              {"min_cut", in.min_cut},
              {"diagnostics", json_diagnostics(in.diagnostics)}};
}

std::string limit_text(const std::optional<PlanBottleneck>& b) {
  if (!b) return "its own demand (nothing shared)";
  return b->capacity_basis ? fmt::format("{} ({})", b->label, *b->capacity_basis)
                           : fmt::format("{} ({})", b->label, rate(b->capacity_mbs));
}

/// "  sdb: measured 2026-12-06 (...)": each drive's demand basis in a sentence, one line each.
template <class Row, class Name>
std::string basis_lines(const std::vector<Row>& rows, Name name) {
  std::string out;
  for (const auto& r : rows) out += fmt::format("  {}: demand {}\n", name(r), r.demand_basis);
  return out;
}

/// "  sdb: this setup was measured: published: ...", for drives whose setup has a published measurement that
/// is not already their demand's basis.
std::string published_lines(const std::vector<PredictRow>& rows) {
  std::string out;
  for (const auto& r : rows)
    if (r.published && r.demand_basis.find(*r.published) == std::string::npos)
      out += fmt::format("  {}: this setup was measured, {}\n", r.dev, *r.published);
  return out;
}

std::string predict_table(const PredictInput& in) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : in.drives)
    rows.push_back({d.dev, d.where.empty() ? "-" : d.where, mbs(d.demand_mbs), d.basis, mbs(d.predicted_mbs),
                    limit_text(d.bottleneck)});
  // Indented by 2; on a terminal the "limited by" labels give way (elided in the middle) to fit.
  return render_table({"drive", "where", "demand MB/s", "basis", "predicted MB/s", "limited by"}, rows,
                      {in.style.width > 2 ? in.style.width - 2 : 0, {5}});
}

std::string indent(const std::string& block, std::string_view pad) {
  std::string out;
  std::size_t b = 0;
  while (b < block.size()) {
    const auto e = block.find('\n', b);
    const auto line = block.substr(b, e == std::string::npos ? std::string::npos : e - b);
    out += line.empty() ? "" : std::string(pad) + line;
    out += '\n';
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

std::string controller_text(const topology::ControllerSummary& c) {
  std::string s = c.pci + " " + std::string(topology::hcd_label(c.kind));
  if (!c.name.empty()) s += " (" + c.name + ")";
  return s;
}

std::string where_text(const topology::ConnectorSummary& c) {
  std::string s = c.physical_location ? topology::describe_location(*c.physical_location) : "";
  if (!c.on_root_hub) s += std::string(s.empty() ? "" : ", ") + "behind hub " + c.hub;
  return s.empty() ? "-" : s;
}

}  // namespace

std::string render_predict_json(const PredictInput& in) {
  return dump_json(json_predict(in));
}

std::string render_predict_text(const PredictInput& in) {
  std::string out =
      "Predicted throughput of the current placement, all drives at once (max-min fair share):\n\n";
  if (in.drives.empty()) return out + "  no USB drives to predict\n";
  out += indent(predict_table(in), "  ");
  out += fmt::format("\n  aggregate {} (max-flow bound {})\n", rate(in.aggregate_mbs), rate(in.max_flow_mbs));
  out += "\n" + basis_lines(in.drives, [](const PredictRow& d) { return d.dev; });
  out += published_lines(in.drives);
  return topology::terminal_safe(out);  // labels and places carry device strings
}

std::string render_plan_json(const PlanInput& in) {
  Json rows = Json::array();
  for (const auto& r : in.rows)
    rows.push_back(Json{{"drive", r.drive},
                        {"connector", json_connector(r.connector)},
                        {"port", r.port},
                        {"speed", r.speed},
                        {"superspeed", r.superspeed},
                        {"controller", json_controller(r.controller)},
                        {"from", r.from ? json_connector(*r.from) : Json(nullptr)},
                        {"from_port", opt(r.from_port)},
                        {"moved", r.moved},
                        {"rate", r.rate},
                        {"protocol", r.protocol},
                        {"demand_mbs", round1(r.demand_mbs)},
                        {"demand_source", r.demand_source},
                        {"demand_basis", r.demand_basis},
                        {"predicted_mbs", round1(r.predicted_mbs)},
                        {"bottleneck", json_bottleneck(r.bottleneck)}});
  Json avoid = Json::array();
  for (const auto& a : in.avoid)
    avoid.push_back(Json{{"kind", a.kind},
                         {"node", a.node},
                         {"capacity_mbs", a.capacity_mbs ? Json(round1(*a.capacity_mbs)) : Json(nullptr)},
                         {"connectors", a.connectors},
                         {"reason", a.reason}});
  Json j{{"mode", in.replace ? "replace" : "new"},
         {"requested", std::max(in.requested, in.rows.size())},
         {"prefer", in.prefer},
         {"demand_mbs", in.demand_mbs ? Json(round1(*in.demand_mbs)) : Json(nullptr)},
         {"placements", rows},
         {"min_mbs", round1(in.min_mbs)},
         {"total_mbs", round1(in.total_mbs)},
         {"moves", in.moves},
         {"already_optimal", in.already_optimal},
         {"headroom", in.headroom ? Json{{"resource", in.headroom->resource},
                                         {"label", in.headroom->label},
                                         {"capacity_mbs", round1(in.headroom->capacity_mbs)},
                                         {"load_mbs", round1(in.headroom->load_mbs)},
                                         {"drives", in.headroom->drives},
                                         {"per_drive_mbs", round1(in.headroom->per_drive_mbs)}}
                                  : Json(nullptr)},
         {"current", in.current ? json_predict(*in.current) : Json(nullptr)},
         {"avoid", avoid},
         {"search", Json{{"method", in.method},
                         {"classes", in.classes},
                         {"evaluated", in.evaluated},
                         {"usable_connectors", in.usable_connectors}}},
         {"diagnostics", json_diagnostics(in.diagnostics)}};
  return dump_json(j);
}

std::string render_plan_text(const PlanInput& in) {
  std::string out;
  const std::size_t n = std::max(in.requested, in.rows.size());
  const std::string what = in.replace ? fmt::format("re-place {} connected drive{}", n, n == 1 ? "" : "s")
                                      : fmt::format("{} new drive{}", n, n == 1 ? "" : "s");
  out += fmt::format("Plan: {}{}, prefer {}\n", what,
                     in.demand_mbs ? ", demand " + rate(*in.demand_mbs) + " each" : "", in.prefer);
  if (in.rows.empty()) return out + "\n  no placement (see the messages above)\n";

  std::vector<std::vector<std::string>> rows;
  for (const auto& r : in.rows) {
    std::string drive = r.drive;
    if (in.replace)
      drive += r.moved ? " (move from " + r.from_port.value_or(r.from ? r.from->id : "?") + ")" : " (stays)";
    rows.push_back({drive, fmt::format("{} ({})", r.port, r.speed), controller_text(r.controller),
                    where_text(r.connector), r.rate + " " + (r.protocol == "uas" ? "UAS" : "BOT"),
                    mbs(r.demand_mbs) + " " + r.basis, mbs(r.predicted_mbs)});
  }
  // Indented by 2; on a terminal the controller names give way (elided in the middle) to fit.
  out += "\n" + indent(render_table({"drive", "connector", "controller", "where", "link", "demand", "MB/s"},
                                    rows, {in.style.width > 2 ? in.style.width - 2 : 0, {2}}),
                       "  ");
  out += fmt::format("\n  all at once: slowest {}, total {}", rate(in.min_mbs), rate(in.total_mbs));
  if (in.replace) out += fmt::format(", {} move{}", in.moves, in.moves == 1 ? "" : "s");
  out += "\n";
  for (const auto& r : in.rows)
    if (r.bottleneck && r.predicted_mbs + 0.05 < r.demand_mbs)
      out += fmt::format("  {} is limited by the {} ({})\n", r.drive, r.bottleneck->label,
                         rate(r.bottleneck->capacity_mbs));
  if (in.current) {
    double lo = 0;
    for (std::size_t i = 0; i < in.current->drives.size(); ++i)
      lo = i == 0 ? in.current->drives[i].predicted_mbs : std::min(lo, in.current->drives[i].predicted_mbs);
    out += fmt::format("  now: slowest {}, total {}\n", rate(lo), rate(in.current->aggregate_mbs));
  }
  if (in.already_optimal)
    out += "  already optimal: no move would make the slowest drive or the total faster; every drive stays\n";
  if (in.headroom)
    out += fmt::format("  headroom: {} more per drive before the {} is full ({} of {}, {} drive{})\n",
                       rate(in.headroom->per_drive_mbs), in.headroom->label, mbs(in.headroom->load_mbs),
                       rate(in.headroom->capacity_mbs), in.headroom->drives,
                       in.headroom->drives == 1 ? "" : "s");
  // Each drive's demand, in a sentence (the table's "demand" column says its basis in a word).
  out += "\n" + basis_lines(in.rows, [](const PlanRow& r) { return r.drive; });
  if (!in.avoid.empty()) {
    out += "\nAvoid:\n";
    for (const auto& a : in.avoid) {
      std::string list;
      const std::size_t shown = std::min<std::size_t>(a.connectors.size(), 6);
      for (std::size_t i = 0; i < shown; ++i) list += (i ? ", " : "") + a.connectors[i];
      if (a.connectors.size() > shown) list += fmt::format(" and {} more", a.connectors.size() - shown);
      out += fmt::format("  - {} [{}]\n", a.reason, list);
    }
  }
  out += fmt::format(
      "\nModel: max-min fair shares over each drive's path (README, bandwidth model); only the planned "
      "drives are "
      "assumed busy.\nSearch: {} over {} connector classes ({} usable connectors, {} placements "
      "evaluated).\n",
      in.method, in.classes, in.usable_connectors, in.evaluated);
  return topology::terminal_safe(out);  // labels and places carry device strings
}

}  // namespace usbsat::report
