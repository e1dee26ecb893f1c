#pragma once
/// `usbsat export --prometheus`'s one conversion: the scan's drives and links, plan --predict's shares and
/// the doctor's findings as the metrics renderer's input (report/prometheus.hpp).
#include <span>

#include "report/prometheus.hpp"
#include "src/analysis/model/predict.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/finding.hpp"

namespace usbsat::cli {

/// The renderer's input for one scan of `t`: every USB whole disk (common::usb_drives) with its summary
/// facts, its plan --predict share and demand with its basis (drives with media: `prediction`,
/// predict_current()), the capacities of the resources on their paths (topology/capacity/bandwidth.hpp, `m`:
/// with the measured ones), the doctor's `findings`, the scan's duration and error diagnostics.
report::PrometheusInput to_report(const topology::Topology& t, const analysis::model::Prediction& prediction,
                                  std::span<const results::Finding> findings, double scan_seconds,
                                  std::span<const topology::Diagnostic> diagnostics,
                                  const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::cli
