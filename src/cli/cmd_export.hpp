#pragma once
/// `usbsat export --prometheus [-o FILE]`: the scan, the drive facts, plan --predict's shares and the
/// doctor's findings as node_exporter textfile-collector metrics (report/prometheus.hpp), written atomically.
#include <span>
#include <string>

#include "report/finding.hpp"
#include "report/prometheus.hpp"
#include "src/analysis/model/predict.hpp"
#include "src/cli/command.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

struct ExportOptions {
  bool prometheus = false;   ///< the format (the only one so far; required, so a second can be added)
  std::string output = "-";  ///< "-": stdout; else a file replaced atomically
};

void bind_export_options(CLI::App& sub, ExportOptions& o);

/// The renderer's input for one scan of `t`: every USB whole disk (common::usb_drives) with its summary
/// facts, its plan --predict share and demand with its basis (drives with media: `prediction`,
/// predict_current()), the capacities of the resources on their paths (topology/capacity/bandwidth.hpp, `m`:
/// with the measured ones), the doctor's `findings`, the scan's duration and error diagnostics.
report::PrometheusInput prometheus_input(const topology::Topology& t,
                                         const analysis::model::Prediction& prediction,
                                         std::span<const report::Finding> findings, double scan_seconds,
                                         std::span<const topology::Diagnostic> diagnostics,
                                         const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::cli
