#include "src/cli/doctor_facts.hpp"

#include "src/analysis/doctor/share_predictor.hpp"

namespace usbsat::cli {

analysis::doctor::DoctorConfig system_doctor_config(const topology::HostFacts& host,
                                                    unsigned max_sectors_target_kb) {
  analysis::doctor::DoctorConfig config;
  config.usb_storage_quirks = host.usb_storage_quirks;
  config.uas_driver_loaded = host.uas_driver_loaded;
  config.max_sectors_target_kb = max_sectors_target_kb;
  return config;
}

analysis::doctor::DoctorResult diagnose_system(const topology::ScanResult& scan, const HistoryContext& h,
                                               unsigned max_sectors_target_kb,
                                               const analysis::model::Prediction* every_drive,
                                               const analysis::model::Prediction* at_ceiling) {
  auto config = system_doctor_config(scan.host, max_sectors_target_kb);
  // shared_bandwidth: predicted shares from the bandwidth model
  const analysis::doctor::ModelSharePredictor model(&h.store, &h.model);
  if (!every_drive) {
    config.predictor = &model;
    return analysis::doctor::diagnose(scan.topology, config);
  }
  const analysis::doctor::PredictedShares given(*every_drive, at_ceiling);
  config.predictor = &given;
  return analysis::doctor::diagnose(scan.topology, config);
}

}  // namespace usbsat::cli
