#include "report/plan_report.hpp"

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "report/table.hpp"
#include "topology/words/describe.hpp"
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

/// A measured or published capacity in words, nullopt for the table's figure.
std::optional<std::string> capacity_basis(const results::Bottleneck& b) {
  if (!b.capacity_basis) return std::nullopt;
  return topology::describe_capacity_basis(*b.capacity_basis, b.capacity);
}

Json json_bottleneck(const std::optional<results::Bottleneck>& b) {
  if (!b) return nullptr;
  return Json{{"node", b->node},
              {"kind", std::string(topology::to_string(b->kind))},
              {"capacity_mbs", round1(b->capacity.mbs())},
              {"label", b->label},
              {"capacity_basis", opt(capacity_basis(*b))}};
}

/// The demand, prediction and bottleneck of one drive, the keys JSON's predicted drives and placements share.
void json_prediction(Json& j, const results::DrivePrediction& d) {
  j["demand_mbs"] = round1(d.demand.mbs());
  j["demand_source"] = std::string(topology::to_string(d.basis.kind));
  j["demand_basis"] = topology::describe_basis(d.basis);
  j["predicted_mbs"] = round1(d.predicted.mbs());
  j["bottleneck"] = json_bottleneck(d.bottleneck);
}

Json json_predict(const PredictInput& in) {
  Json drives = Json::array();
  for (const auto& r : in.drives) {
    Json d{{"dev", r.prediction.dev}, {"where", r.where}};
    json_prediction(d, r.prediction);
    d["published"] = r.published ? Json(topology::describe_basis(*r.published)) : Json(nullptr);
    drives.push_back(std::move(d));
  }
  return Json{{"drives", drives},
              {"aggregate_mbs", round1(in.aggregate.mbs())},
              {"max_flow_mbs", round1(in.bound.max_flow.mbs())},
              {"min_cut", in.bound.min_cut},
              {"diagnostics", json_diagnostics(in.diagnostics)}};
}

std::string limit_text(const std::optional<results::Bottleneck>& b) {
  if (!b) return "its own demand (nothing shared)";
  const auto basis = capacity_basis(*b);
  return basis ? fmt::format("{} ({})", b->label, *basis)
               : fmt::format("{} ({})", b->label, rate(b->capacity.mbs()));
}

/// "  sdb: demand measured 2026-12-06 (...)": a drive's demand basis in a sentence, one line.
std::string basis_line(std::string_view drive, const results::DrivePrediction& d) {
  return fmt::format("  {}: demand {}\n", drive, topology::describe_basis(d.basis));
}

/// "  sdb: this setup was measured: published: ...", for drives whose setup has a published measurement that
/// is not already their demand's basis.
std::string published_lines(const std::vector<PredictRow>& rows) {
  std::string out;
  for (const auto& r : rows) {
    if (!r.published) continue;
    const auto published = topology::describe_basis(*r.published);
    if (topology::describe_basis(r.prediction.basis).find(published) == std::string::npos)
      out += fmt::format("  {}: this setup was measured, {}\n", r.prediction.dev, published);
  }
  return out;
}

std::string predict_table(const PredictInput& in) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : in.drives) {
    const auto& d = r.prediction;
    rows.push_back({d.dev, r.where.empty() ? "-" : r.where, mbs(d.demand.mbs()),
                    topology::basis_short(d.basis), mbs(d.predicted.mbs()), limit_text(d.bottleneck)});
  }
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
  std::string s = topology::controller_cell(c.kind, c.pci);
  if (!c.name.empty()) s += " (" + c.name + ")";
  return s;
}

std::string where_text(const topology::ConnectorSummary& c) {
  std::string s = c.physical_location ? topology::describe_location(*c.physical_location) : "";
  if (!c.on_root_hub) s += std::string(s.empty() ? "" : ", ") + "behind hub " + c.hub;
  return s.empty() ? "-" : s;
}

/// The speed class of the slot of `connector` (a USB3 side marked `not used` does not count): "USB3 10G",
/// "USB2 only"; "" when no slot is that connector.
std::string slot_speed(const results::Plan& plan, std::size_t connector) {
  std::string speed;
  for (const auto& s : plan.slots)
    if (s.connector == connector)
      speed = std::string(
          topology::to_string(topology::connector_class(s.usb3_port ? s.usb3_speed : s.usb2_speed)));
  return speed;
}

/// The placements: drive, connector and its speed, controller, where, link, demand and predicted share.
std::string placement_table(const PlanInput& in) {
  const auto& plan = in.plan;
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < plan.placements.size(); ++i) {
    const auto& p = plan.placements[i];
    const auto& at = in.places.at(i);
    std::string drive = p.drive;
    if (plan.replace)
      drive +=
          p.moved ? " (move from " + at.from_port.value_or(at.from ? at.from->id : "?") + ")" : " (stays)";
    rows.push_back({drive, fmt::format("{} ({})", at.port, slot_speed(plan, p.connector)),
                    controller_text(at.controller), where_text(at.connector),
                    std::string(topology::to_string(p.rate)) + " " +
                        (p.protocol == topology::StorageProtocol::Uas ? "UAS" : "BOT"),
                    mbs(p.prediction.demand.mbs()) + " " + topology::basis_short(p.prediction.basis),
                    mbs(p.prediction.predicted.mbs())});
  }
  return render_table({"drive", "connector", "controller", "where", "link", "demand", "MB/s"}, rows,
                      {in.style.width > 2 ? in.style.width - 2 : 0, {2}});
}

/// "Avoid:" and a line per note with (the first six of) its connectors; "" with nothing to avoid.
std::string avoid_text(const PlanInput& in) {
  if (in.plan.avoid.empty()) return "";
  std::string out = "\nAvoid:\n";
  for (std::size_t a = 0; a < in.plan.avoid.size(); ++a) {
    const auto& ids = in.avoid_connectors.at(a);
    std::string list;
    const std::size_t shown = std::min<std::size_t>(ids.size(), 6);
    for (std::size_t i = 0; i < shown; ++i) list += (i ? ", " : "") + ids[i];
    if (ids.size() > shown) list += fmt::format(" and {} more", ids.size() - shown);
    out += fmt::format("  - {} [{}]\n", in.plan.avoid[a].reason, list);
  }
  return out;
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
  out += fmt::format("\n  aggregate {} (max-flow bound {})\n", rate(in.aggregate.mbs()),
                     rate(in.bound.max_flow.mbs()));
  out += "\n";
  for (const auto& r : in.drives) out += basis_line(r.prediction.dev, r.prediction);
  out += published_lines(in.drives);
  return topology::terminal_safe(out);  // labels and places carry device strings
}

std::string render_plan_json(const PlanInput& in) {
  const auto& plan = in.plan;
  Json rows = Json::array();
  for (std::size_t i = 0; i < plan.placements.size(); ++i) {
    const auto& p = plan.placements[i];
    const auto& at = in.places.at(i);
    Json r{{"drive", p.drive},
           {"connector", json_connector(at.connector)},
           {"port", at.port},
           {"speed", slot_speed(plan, p.connector)},
           {"superspeed", p.superspeed},
           {"controller", json_controller(at.controller)},
           {"from", at.from ? json_connector(*at.from) : Json(nullptr)},
           {"from_port", opt(at.from_port)},
           {"moved", p.moved},
           {"rate", std::string(topology::to_string(p.rate))},
           {"protocol", std::string(topology::to_string(p.protocol))}};
    json_prediction(r, p.prediction);
    rows.push_back(std::move(r));
  }
  Json avoid = Json::array();
  for (std::size_t i = 0; i < plan.avoid.size(); ++i) {
    const auto& a = plan.avoid[i];
    avoid.push_back(Json{{"kind", a.kind},
                         {"node", a.node},
                         {"capacity_mbs", a.capacity ? Json(round1(a.capacity->mbs())) : Json(nullptr)},
                         {"connectors", in.avoid_connectors.at(i)},
                         {"reason", a.reason}});
  }
  const auto& h = plan.headroom;
  Json j{{"mode", plan.replace ? "replace" : "new"},
         {"requested", std::max(plan.requested, plan.placements.size())},
         {"prefer", std::string(results::to_string(plan.prefer))},
         {"demand_mbs", in.demand ? Json(round1(in.demand->mbs())) : Json(nullptr)},
         {"placements", rows},
         {"min_mbs", round1(plan.min.mbs())},
         {"total_mbs", round1(plan.total.mbs())},
         {"moves", plan.moves},
         {"already_optimal", plan.already_optimal},
         {"headroom", h ? Json{{"resource", h->resource},
                               {"label", h->label},
                               {"capacity_mbs", round1(h->capacity.mbs())},
                               {"load_mbs", round1(h->load.mbs())},
                               {"drives", h->drives},
                               {"per_drive_mbs", round1(h->per_drive.mbs())}}
                        : Json(nullptr)},
         {"current", in.current ? json_predict(*in.current) : Json(nullptr)},
         {"avoid", avoid},
         {"search", Json{{"method", plan.method},
                         {"classes", plan.classes},
                         {"evaluated", plan.evaluated},
                         {"usable_connectors", plan.slots.size()}}},
         {"diagnostics", json_diagnostics(plan.diagnostics)}};
  return dump_json(j);
}

std::string render_plan_text(const PlanInput& in) {
  const auto& plan = in.plan;
  std::string out;
  const std::size_t n = std::max(plan.requested, plan.placements.size());
  const std::string what = plan.replace ? fmt::format("re-place {} connected drive{}", n, n == 1 ? "" : "s")
                                        : fmt::format("{} new drive{}", n, n == 1 ? "" : "s");
  out += fmt::format("Plan: {}{}, prefer {}\n", what,
                     in.demand ? ", demand " + rate(in.demand->mbs()) + " each" : "",
                     results::to_string(plan.prefer));
  if (plan.placements.empty()) return out + "\n  no placement (see the messages above)\n";

  // Indented by 2; on a terminal the controller names give way (elided in the middle) to fit.
  out += "\n" + indent(placement_table(in), "  ");
  out += fmt::format("\n  all at once: slowest {}, total {}", rate(plan.min.mbs()), rate(plan.total.mbs()));
  if (plan.replace) out += fmt::format(", {} move{}", plan.moves, plan.moves == 1 ? "" : "s");
  out += "\n";
  for (const auto& p : plan.placements) {
    const auto& d = p.prediction;
    if (d.bottleneck && d.predicted.mbs() + 0.05 < d.demand.mbs())
      out += fmt::format("  {} is limited by the {} ({})\n", p.drive, d.bottleneck->label,
                         rate(d.bottleneck->capacity.mbs()));
  }
  if (in.current) {
    double lo = 0;
    const auto& now = in.current->drives;
    for (std::size_t i = 0; i < now.size(); ++i)
      lo = i == 0 ? now[i].prediction.predicted.mbs() : std::min(lo, now[i].prediction.predicted.mbs());
    out += fmt::format("  now: slowest {}, total {}\n", rate(lo), rate(in.current->aggregate.mbs()));
  }
  if (plan.already_optimal)
    out += "  already optimal: no move would make the slowest drive or the total faster; every drive stays\n";
  if (const auto& h = plan.headroom)
    out += fmt::format("  headroom: {} more per drive before the {} is full ({} of {}, {} drive{})\n",
                       rate(h->per_drive.mbs()), h->label, mbs(h->load.mbs()), rate(h->capacity.mbs()),
                       h->drives, h->drives == 1 ? "" : "s");
  // Each drive's demand, in a sentence (the table's "demand" column says its basis in a word).
  out += "\n";
  for (const auto& p : plan.placements) out += basis_line(p.drive, p.prediction);
  out += avoid_text(in);
  out += fmt::format(
      "\nModel: max-min fair shares over each drive's path (README, bandwidth model); only the planned "
      "drives are "
      "assumed busy.\nSearch: {} over {} connector classes ({} usable connectors, {} placements "
      "evaluated).\n",
      plan.method, plan.classes, plan.slots.size(), plan.evaluated);
  return topology::terminal_safe(out);  // labels and places carry device strings
}

}  // namespace usbsat::report
