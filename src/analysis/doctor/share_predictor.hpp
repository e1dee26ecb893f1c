#pragma once
/// The doctor's SharePredictor backed by the bandwidth model (src/analysis/model/predict.hpp): every USB
/// drive at its own link ceiling, max-min fair shares, the resource that stops each one.
#include "src/analysis/doctor/doctor.hpp"

namespace usbsat::analysis::doctor {

/// One drive per medium (common::usb_drives_with_media: two cards in one reader are two drives sharing
/// its link), demand = the drive's link ceiling, prediction = predict_fair_share().
class ModelSharePredictor : public SharePredictor {
 public:
  std::vector<DriveShare> predict(const topology::Topology& t) const override;
};

}  // namespace usbsat::analysis::doctor
