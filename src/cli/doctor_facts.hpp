#pragma once
/// The few facts the doctor needs that are not in the topology (usb-storage quirks, whether uas is loaded),
/// read from this system, and the doctor run on a scanned topology: `doctor` and `report` share both.
#include "src/analysis/doctor/doctor.hpp"

namespace usbsat::cli {

/// DoctorConfig from /sys/module (quirks, uas loaded) with `max_sectors_target_kb`; no predictor.
analysis::doctor::DoctorConfig system_doctor_config(unsigned max_sectors_target_kb);

/// diagnose() with system_doctor_config() and the bandwidth model as the share predictor.
analysis::doctor::DoctorResult diagnose_system(const topology::Topology& t, unsigned max_sectors_target_kb = 1024);

}  // namespace usbsat::cli
