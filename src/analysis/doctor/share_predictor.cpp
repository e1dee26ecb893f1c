#include "src/analysis/doctor/share_predictor.hpp"

#include "src/analysis/common/usb_drives.hpp"

#include "src/analysis/model/predict.hpp"

namespace usbsat::analysis::doctor {

using namespace model;

std::vector<DriveShare> ModelSharePredictor::predict(const topology::Topology& t) const {
  using namespace topology;
  // One drive per medium (common::usb_drives_with_media): two cards in one reader share its USB link.
  std::vector<DemandSpec> specs;
  for (const auto& d : common::usb_drives_with_media(t))
    specs.push_back(DemandSpec{d.name, std::nullopt, DemandSource::LinkCeiling});
  if (specs.size() < 2) return {};  // nothing can share

  const FlowProblem problem = make_problem(t, specs);
  const Prediction p = predict_fair_share(problem);
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

}  // namespace usbsat::analysis::doctor
