#pragma once
/// The doctor as `usbsat doctor` runs it on a scan (live or --from): the few facts outside the topology come
/// from the scan's HostFacts (usb-storage quirks, whether uas is loaded). `doctor`, `report`, `topo --dot`
/// and `export` share it.
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/model/predict.hpp"
#include "src/cli/history_context.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

/// DoctorConfig from the scan's host facts (quirks, uas loaded) with `max_sectors_target_kb`; no predictor.
analysis::doctor::DoctorConfig system_doctor_config(const topology::HostFacts& host,
                                                    unsigned max_sectors_target_kb);

/// The doctor's default target for max_sectors_below_hw (`doctor --max-sectors-target`).
inline constexpr unsigned kMaxSectorsTargetKb = analysis::doctor::DoctorConfig{}.max_sectors_target_kb;

/// diagnose() with system_doctor_config() and the bandwidth model as the share predictor (the drives'
/// demands and the measured capacities of `h`): `every_drive` (and `at_ceiling`, the same drives each at its
/// link's ceiling) when the caller predicted every USB drive already (predict_current()), else the model run
/// here.
analysis::doctor::DoctorResult diagnose_system(const topology::ScanResult& scan, const HistoryContext& h,
                                               unsigned max_sectors_target_kb = kMaxSectorsTargetKb,
                                               const analysis::model::Prediction* every_drive = nullptr,
                                               const analysis::model::Prediction* at_ceiling = nullptr);

}  // namespace usbsat::cli
