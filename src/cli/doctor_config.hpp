#pragma once
/// The doctor's facts from outside the topology (usb-storage quirks, whether uas is loaded), read from this
/// system: shared by `usbsat doctor` and `usbsat watch`.
#include "src/analysis/doctor/doctor.hpp"

namespace usbsat::cli {

/// A DoctorConfig with the usb-storage quirks parameter, whether /sys/module/uas exists, `max_sectors_target_kb`
/// and `predictor` (may be null: no shared_bandwidth findings).
analysis::doctor::DoctorConfig system_doctor_config(unsigned max_sectors_target_kb,
                                                    const analysis::doctor::SharePredictor* predictor);

}  // namespace usbsat::cli
