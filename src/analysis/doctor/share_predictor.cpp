#include "src/analysis/doctor/share_predictor.hpp"

#include "src/analysis/common/usb_drives.hpp"

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
    if (d.bottleneck) {
      s.bottleneck = d.bottleneck->resource;
      s.bottleneck_node = d.bottleneck->node;
      s.bottleneck_label = d.bottleneck->label;
      s.bottleneck_capacity_mbps = d.bottleneck->capacity.mbs();
    } else {
      s.bottleneck = "unshared:" + d.dev;  // its own group: never a shared_bandwidth finding
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<DriveShare> ModelSharePredictor::predict(const topology::Topology& t) const {
  // One drive per medium (common::usb_drives_with_media): two cards in one reader share its USB link.
  std::vector<DemandSpec> specs;
  for (const auto& d : common::usb_drives_with_media(t))
    specs.push_back(DemandSpec{d.name, std::nullopt, DemandSource::LinkCeiling});
  if (specs.size() < 2) return {};  // nothing can share
  return shares_of(t, predict_fair_share(make_problem(t, specs)));
}

std::vector<DriveShare> PredictedShares::predict(const topology::Topology& t) const {
  // One drive alone is a group of one, which check_shared_bandwidth never reports: no need to skip it.
  return shares_of(t, prediction_);
}

}  // namespace usbsat::analysis::doctor
