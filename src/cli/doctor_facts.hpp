#pragma once
/// The doctor as `usbsat doctor` runs it on a scan (live or --from): the few facts outside the topology come
/// from the scan's HostFacts (usb-storage quirks, whether uas is loaded). `doctor`, `report`, `topo --dot`
/// and `export` share it.
#include "src/analysis/doctor/doctor.hpp"
#include "topology/scan.hpp"

namespace usbsat::cli {

/// DoctorConfig from the scan's host facts (quirks, uas loaded) with `max_sectors_target_kb`; no predictor.
analysis::doctor::DoctorConfig system_doctor_config(const topology::HostFacts& host,
                                                    unsigned max_sectors_target_kb);

/// diagnose() with system_doctor_config() and the bandwidth model as the share predictor.
analysis::doctor::DoctorResult diagnose_system(const topology::ScanResult& scan,
                                               unsigned max_sectors_target_kb = 1024);

}  // namespace usbsat::cli
