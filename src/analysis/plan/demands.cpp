// `--demand` values: parse, range-check, reject duplicates and demands for drives that are not planned.
#include "src/analysis/plan/demands.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/analysis/plan/planner.hpp"
#include "topology/base/text.hpp"

namespace usbsat::analysis::plan {

DemandsParse parse_demands(std::span<const std::string> args) {
  DemandsParse out;
  std::map<std::string, std::string, std::less<>> given;  // drive ("" = common) -> the argument that set it
  for (const auto& a : args) {
    const auto eq = a.find('=');
    const std::string dev = eq == std::string::npos
                                ? ""
                                : std::string(topology::strip_dev_prefix(std::string_view(a).substr(0, eq)));
    const auto rate = topology::parse_rate(eq == std::string::npos ? a : a.substr(eq + 1));
    if (eq != std::string::npos && dev.empty())
      out.error = fmt::format("--demand '{}' names no drive (expected DEV=RATE, e.g. sdb=170M)", a);
    else if (!rate)
      out.error =
          fmt::format("bad --demand '{}' (expected a rate from 0.1M to 100G: 400M, 1.2G or DEV=170M)", a);
    else if (*rate < kMinDemand || *rate > kMaxDemand)
      out.error = fmt::format("--demand '{}' is out of range (0.1M to 100G per drive)", a);
    else if (const auto it = given.find(dev); it != given.end())
      out.error = dev.empty()
                      ? fmt::format("--demand '{}': the common demand is already '{}'", a, it->second)
                      : fmt::format("--demand '{}': {} already has a demand ('{}')", a, dev, it->second);
    if (!out.error.empty()) return out;
    given.emplace(dev, a);
    if (dev.empty())
      out.demands.common = rate;
    else
      out.demands.per_drive.emplace(dev, *rate);
  }
  return out;
}

std::vector<std::string> demand_names(std::span<const std::string> devices, unsigned new_drives) {
  std::vector<std::string> out;
  for (const auto& d : devices) out.emplace_back(topology::strip_dev_prefix(d));
  if (devices.empty())
    for (unsigned i = 1; i <= new_drives; ++i) out.push_back(new_drive_name(i));
  return out;
}

std::optional<std::string> unknown_demand(const Demands& d, std::span<const std::string> drives) {
  for (const auto& [dev, rate] : d.per_drive) {
    if (std::find(drives.begin(), drives.end(), dev) != drives.end()) continue;
    if (drives.empty()) return fmt::format("--demand for {}: there is no drive to plan or predict", dev);
    return fmt::format("--demand for {}: {} is not one of the drives asked about ({})", dev, dev,
                       fmt::join(drives, ", "));
  }
  return std::nullopt;
}

}  // namespace usbsat::analysis::plan
