#pragma once
/// The doctor's SharePredictor backed by the bandwidth model (src/predict.hpp): every USB drive at its own
/// link ceiling, max-min fair shares, the resource that stops each one.
#include "src/analysis/doctor/doctor.hpp"

namespace usbsat::analysis::doctor {

/// One drive per USB storage device (its first block device with media, multi-LUN readers count once),
/// demand = the drive's link ceiling, prediction = predict_fair_share().
class ModelSharePredictor : public SharePredictor {
 public:
  std::vector<DriveShare> predict(const topology::Topology& t) const override;
};

}  // namespace usbsat::analysis::doctor
