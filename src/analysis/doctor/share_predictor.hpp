#pragma once
/// The doctor's SharePredictor backed by the bandwidth model (src/analysis/model/predict.hpp): every USB
/// drive at its demand (model/demand.hpp: measured, else estimated from its medium, else its link ceiling),
/// max-min fair shares, the resource that stops each one.
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/model/predict.hpp"
#include "topology/history/store.hpp"

namespace usbsat::analysis::doctor {

/// The shares of a prediction of every USB drive with media (the problem ModelSharePredictor builds;
/// `plan --predict`'s too), as the doctor reads them.
std::vector<DriveShare> shares_of(const topology::Topology& t, const model::Prediction& p);

/// One drive per medium (common::usb_drives_with_media: two cards in one reader are two drives sharing
/// its link), demand = model::drive_demand() with `store`, prediction = predict_fair_share() over `m`.
/// Both must outlive the predictor (nullptr: nothing measured / the nominal model).
class ModelSharePredictor : public SharePredictor {
 public:
  explicit ModelSharePredictor(const history::Store* store = nullptr,
                               const topology::CapacityModel* m = nullptr)
      : store_(store), model_(m ? m : &topology::nominal_model()) {}
  std::vector<DriveShare> predict(const topology::Topology& t) const override;
  std::vector<DriveShare> predict_at_link_ceiling(const topology::Topology& t) const override;

 private:
  const history::Store* store_;
  const topology::CapacityModel* model_;
};

/// A prediction the caller made already over that same problem (`export` and `report` also show it), so
/// it is computed once: shares_of() the given prediction; `at_ceiling` likewise for the drives at their
/// link ceilings (nullptr: unknown). They must outlive the predictor.
class PredictedShares : public SharePredictor {
 public:
  explicit PredictedShares(const model::Prediction& p, const model::Prediction* at_ceiling = nullptr)
      : prediction_(p), at_ceiling_(at_ceiling) {}
  std::vector<DriveShare> predict(const topology::Topology& t) const override;
  std::vector<DriveShare> predict_at_link_ceiling(const topology::Topology& t) const override;

 private:
  const model::Prediction& prediction_;
  const model::Prediction* at_ceiling_;
};

}  // namespace usbsat::analysis::doctor
