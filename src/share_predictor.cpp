#include "src/share_predictor.hpp"

#include <set>

#include "src/predict.hpp"

namespace usbsat::analysis {

std::vector<DriveShare> ModelSharePredictor::predict(const topology::Topology& t) const {
  using namespace topology;
  // One block device per USB device: a 4-slot card reader is one drive on one link, not four.
  std::vector<DemandSpec> specs;
  std::vector<Vertex> devices;
  std::set<Vertex> seen;
  for (Vertex b : block_devices(t)) {
    const auto& bi = t[b].as<BlockInfo>();
    if (!bi.usb || (bi.size_bytes && *bi.size_bytes == 0)) continue;
    const auto dev = usb_device_of(t, b);
    if (!dev || !seen.insert(*dev).second) continue;
    specs.push_back(DemandSpec{bi.name, std::nullopt, DemandSource::LinkCeiling});
    devices.push_back(*dev);
  }
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

}  // namespace usbsat::analysis
