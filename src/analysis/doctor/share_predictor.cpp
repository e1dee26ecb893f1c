#include "src/analysis/doctor/share_predictor.hpp"

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/model/demand.hpp"

namespace usbsat::analysis::doctor {

using namespace model;

std::vector<DriveShare> shares_of(const topology::Topology& t, const Prediction& p) {
  using namespace topology;
  std::vector<DriveShare> out;
  for (const auto& d : p.drives) {
    const auto b = t.find_by_name(d.dev);
    const auto dev = b ? usb_device_of(t, *b) : std::nullopt;
    if (!dev) continue;
    DriveShare s;
    s.drive = *dev;
    s.block = *b;
    s.demand_mbps = d.demand.mbs();
    s.predicted_mbps = d.predicted.mbs();
    s.basis = d.basis;
    if (d.bottleneck) {
      s.bottleneck = d.bottleneck->resource;
      s.bottleneck_node = d.bottleneck->node;
      s.bottleneck_label = d.bottleneck->label;
      s.bottleneck_capacity_mbps = d.bottleneck->capacity.mbs();
      s.bottleneck_basis = d.bottleneck->capacity_basis;
    } else {
      s.bottleneck = "unshared:" + d.dev;  // its own group: never a shared_bandwidth finding
    }
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

/// Every USB drive with a medium (one per medium: two cards in one reader share its USB link).
std::vector<std::string> drive_names(const topology::Topology& t) {
  std::vector<std::string> names;
  for (const auto& d : common::usb_drives_with_media(t)) names.push_back(d.name);
  return names;
}

}  // namespace

std::vector<DriveShare> ModelSharePredictor::predict(const topology::Topology& t) const {
  // Every drive, even alone: slow_hub_uplink weighs each drive's demand too.
  const auto names = drive_names(t);
  const auto specs = demand_specs(t, names, {}, store_, *model_);
  return shares_of(t, predict_fair_share(make_problem(t, specs, *model_)));
}

std::vector<DriveShare> ModelSharePredictor::predict_at_link_ceiling(const topology::Topology& t) const {
  const auto names = drive_names(t);
  if (names.size() < 2) return {};
  std::vector<DemandSpec> specs;
  for (const auto& n : names) specs.push_back({n, std::nullopt, topology::Basis{DemandSource::LinkCeiling}});
  return shares_of(t, predict_fair_share(make_problem(t, specs, *model_)));
}

std::vector<DriveShare> PredictedShares::predict(const topology::Topology& t) const {
  // One drive alone is a group of one, which check_shared_bandwidth never reports: no need to skip it.
  return shares_of(t, prediction_);
}

std::vector<DriveShare> PredictedShares::predict_at_link_ceiling(const topology::Topology& t) const {
  return at_ceiling_ ? shares_of(t, *at_ceiling_) : std::vector<DriveShare>{};
}

}  // namespace usbsat::analysis::doctor
