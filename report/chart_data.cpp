#include "report/chart_data.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace usbsat::report {
namespace {

std::optional<double> number_or_null(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return v.get<double>();
}

std::string phase_label(int n) {
  return n == 1 ? "each alone" : fmt::format("{} at once", n);
}

}  // namespace

ChartsOrError<BarChart> saturate_charts(const nlohmann::json& doc) {
  ChartsOrError<BarChart> out;
  try {
    for (const auto& g : doc.at("groups")) {
      BarChart c;
      c.title = fmt::format("group {}: {}", g.at("name").get<std::string>(),
                            g.at("node").at("label").get<std::string>());
      for (const auto& p : g.at("phases")) {
        ChartBarGroup bars;
        bars.label = phase_label(p.at("n").get<int>());
        // The group's drive order, not the object's key order.
        for (const auto& d : g.at("drives")) {
          const auto name = d.get<std::string>();
          if (auto it = p.at("per_drive_mbs").find(name); it != p.at("per_drive_mbs").end())
            bars.bars.push_back({name, it->get<double>(), false});
        }
        if (auto agg = number_or_null(p, "aggregate_mbs")) bars.bars.push_back({"aggregate", *agg, true});
        bars.predicted = number_or_null(p, "predicted_aggregate_mbs");
        c.groups.push_back(std::move(bars));
      }
      if (g.contains("plateau_mbs")) c.plateau = number_or_null(g, "plateau_mbs");
      if (g.contains("conclusion")) c.verdict = g.at("conclusion").get<std::string>();
      out.charts.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat saturate --json` document ({})", e.what());
  }
  return out;
}

ChartsOrError<LineChart> load_charts(const nlohmann::json& doc) {
  ChartsOrError<LineChart> out;
  try {
    std::size_t i = 0;
    for (const auto& p : doc.at("phases")) {
      LineChart c;
      std::string targets;
      for (const auto& t : p.at("targets")) targets += " " + t.get<std::string>();
      c.title = fmt::format("phase {}:{}", ++i, targets);
      for (const auto& t : p.at("per_target"))
        c.series.push_back(
            {t.at("target").get<std::string>(), t.at("series_mbs").get<std::vector<double>>()});
      out.charts.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat load --json` document ({})", e.what());
  }
  return out;
}

}  // namespace usbsat::report
