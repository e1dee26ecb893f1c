// The measured capacity a judged group gives a modelled resource (calibration.hpp).
#include "src/analysis/saturate/calibration.hpp"

#include <algorithm>

namespace usbsat::analysis::saturate {
namespace {

const topology::Resource* candidate(const GroupInput& in, const std::string& id) {
  for (const auto& r : in.candidates)
    if (r.id == id) return &r;
  return nullptr;
}

/// The resource a contended group's plateau describes: the one named, else the nearest shared one.
const topology::Resource* plateau_resource(const GroupInput& in, const GroupVerdict& v) {
  if (v.bottleneck && v.bottleneck->kind && !v.bottleneck->lowest_common_ancestor)
    for (const auto& r : in.candidates)
      if (r.kind == *v.bottleneck->kind && r.node == v.bottleneck->node) return &r;
  return in.candidates.empty() ? nullptr : &in.candidates.front();
}

/// The resource the model said would stop the judged phase's drives (the first drive's bottleneck).
const topology::Resource* predicted_resource(const GroupInput& in, unsigned n) {
  for (const auto& p : in.predictions) {
    if (p.n != n) continue;
    for (const auto& d : p.prediction.drives)
      if (d.bottleneck && d.bottleneck->kind != topology::ResourceKind::DriveLink)
        return candidate(in, d.bottleneck->resource);
  }
  return nullptr;
}

}  // namespace

std::optional<MeasuredCapacity> measured_capacity(const GroupInput& in, const GroupVerdict& v) {
  if (in.declared_group || !v.deciding_phase) return std::nullopt;
  const auto& judged = v.phases.at(*v.deciding_phase);
  MeasuredCapacity out;
  for (const auto& d : judged.drives) out.drives.push_back(d.dev);
  const topology::Resource* r = nullptr;
  if (v.verdict != Verdict::NoContention && v.plateau_mbs) {
    r = plateau_resource(in, v);
    out.mbs = *v.plateau_mbs;
  } else if (judged.predicted_aggregate_mbs && judged.solo_sum_mbs &&
             *judged.predicted_aggregate_mbs < *judged.solo_sum_mbs * (1 - v.tolerance)) {
    r = predicted_resource(in, judged.n);
    out.mbs = judged.aggregate_mbs;
    out.at_least = true;
  }
  if (!r || !r->vertex || !(out.mbs > 0)) return std::nullopt;
  out.resource = *r;
  return out;
}

}  // namespace usbsat::analysis::saturate
