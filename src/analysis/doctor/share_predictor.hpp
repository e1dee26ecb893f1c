#pragma once
/// The doctor's SharePredictor backed by the bandwidth model (src/analysis/model/predict.hpp): every USB
/// drive at its own link ceiling, max-min fair shares, the resource that stops each one.
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/model/predict.hpp"

namespace usbsat::analysis::doctor {

/// The shares of a prediction of every USB drive with media at its link ceiling (the problem
/// ModelSharePredictor builds; `plan --predict`'s too), as the doctor reads them.
std::vector<DriveShare> shares_of(const topology::Topology& t, const model::Prediction& p);

/// One drive per medium (common::usb_drives_with_media: two cards in one reader are two drives sharing
/// its link), demand = the drive's link ceiling, prediction = predict_fair_share().
class ModelSharePredictor : public SharePredictor {
 public:
  std::vector<DriveShare> predict(const topology::Topology& t) const override;
};

/// A prediction the caller made already over that same problem (`export` and `report` also show it), so
/// it is computed once: shares_of() the given prediction. It must outlive the predictor.
class PredictedShares : public SharePredictor {
 public:
  explicit PredictedShares(const model::Prediction& p) : prediction_(p) {}
  std::vector<DriveShare> predict(const topology::Topology& t) const override;

 private:
  const model::Prediction& prediction_;
};

}  // namespace usbsat::analysis::doctor
