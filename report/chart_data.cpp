#include "report/chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace usbsat::report {
namespace {

/// The largest rate a result may hold: 1000 GB/s, the top of `saturate --group`'s capacity range; a larger,
/// negative or non-finite number is a damaged or forged file, not a measurement.
constexpr double kMaxRateMbs = 1e6;

/// A rate in MB/s from `v`; throws std::domain_error naming it when it is no plausible rate.
double rate(const nlohmann::json& v) {
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0 || x > kMaxRateMbs)
    throw std::domain_error(fmt::format("{} MB/s is not a rate (0 to {:g} MB/s)", v.dump(), kMaxRateMbs));
  return x;
}

/// The most drives a saturate phase runs at once that a result may hold: far beyond any USB bus.
constexpr std::int64_t kMaxDrivesAtOnce = 4096;

/// A phase's drive count `n` from `v`; throws std::domain_error naming it when it is no whole number from 1
/// to kMaxDrivesAtOnce (a forged 1e20 was converted to int: undefined behaviour).
int drives_at_once(const nlohmann::json& v) {
  const bool whole = v.is_number_integer();
  const std::int64_t n =
      !whole ? 0
      : v.is_number_unsigned()
          ? static_cast<std::int64_t>(std::min<std::uint64_t>(v.get<std::uint64_t>(), kMaxDrivesAtOnce + 1))
          : v.get<std::int64_t>();
  if (!whole || n < 1 || n > kMaxDrivesAtOnce)
    throw std::domain_error(
        fmt::format("phase n {} is not a number of drives at once (1 to {})", v.dump(), kMaxDrivesAtOnce));
  return static_cast<int>(n);
}

std::optional<double> number_or_null(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return rate(v);
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
      // What the group is and which drives it measured, once: "controller 0000:03:00.0 (ASM1042): sdb, sdc".
      std::string drives;
      for (const auto& d : g.at("drives")) drives += (drives.empty() ? "" : ", ") + d.get<std::string>();
      c.title = g.at("node").at("label").get<std::string>() + (drives.empty() ? "" : ": " + drives);
      for (const auto& p : g.at("phases")) {
        ChartBarGroup bars;
        bars.label = phase_label(drives_at_once(p.at("n")));
        // The group's drive order, not the object's key order.
        for (const auto& d : g.at("drives")) {
          const auto name = d.get<std::string>();
          if (auto it = p.at("per_drive_mbs").find(name); it != p.at("per_drive_mbs").end())
            bars.bars.push_back({name, rate(*it), false});
        }
        if (auto agg = number_or_null(p, "aggregate_mbs")) bars.bars.push_back({"aggregate", *agg, true});
        bars.predicted = number_or_null(p, "predicted_aggregate_mbs");
        c.groups.push_back(std::move(bars));
      }
      if (g.contains("plateau_mbs")) c.plateau = number_or_null(g, "plateau_mbs");
      if (g.contains("conclusion")) c.verdict = g.at("conclusion").get<std::string>();
      out.charts.push_back(std::move(c));
    }
    // One MB/s scale for every group of the run, so bars compare across groups.
    double largest = 0;
    for (const auto& c : out.charts) largest = std::max(largest, chart_max(c));
    for (auto& c : out.charts) c.scale_max = largest;
  } catch (const nlohmann::json::exception& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat saturate --json` document ({})", e.what());
  } catch (const std::domain_error& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat saturate --json` result: {}", e.what());
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
      for (const auto& t : p.at("per_target")) {
        std::vector<double> values;
        for (const auto& v : t.at("series_mbs")) values.push_back(rate(v));
        c.series.push_back({t.at("target").get<std::string>(), std::move(values)});
      }
      out.charts.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat load --json` document ({})", e.what());
  } catch (const std::domain_error& e) {
    out.charts.clear();
    out.error = fmt::format("not a `usbsat load --json` result: {}", e.what());
  }
  return out;
}

}  // namespace usbsat::report
