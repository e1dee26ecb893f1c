#pragma once
/// `usbsat doctor`: its options and how they bind to the command line (cmd_doctor.cpp).
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/doctor/doctor.hpp"
#include "src/cli/command.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

/// `usbsat doctor`: tuning of the checks.
struct DoctorOptions {
  unsigned max_sectors_target_kb = 1024;  ///< max_sectors_below_hw recommends min(max_hw_sectors_kb, this)
};

/// Add the options of `usbsat doctor` to `sub`, bound to `o`.
void bind_doctor_options(CLI::App& sub, DoctorOptions& o);

}  // namespace usbsat::cli
