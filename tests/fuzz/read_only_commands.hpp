#pragma once
/// What the scan-level fuzz targets (fuzz_scan, fuzz_recording) do with a scan: the read-only commands'
/// pipeline, doctor → the topo, drives, ports and doctor renderers, text and JSON. No crash, no sanitizer
/// report, and every --json document parses.
#include <nlohmann/json.hpp>
#include <string>

#include "report/doctor_report.hpp"
#include "report/drives_view.hpp"
#include "report/json_topology.hpp"
#include "report/ports_view.hpp"
#include "report/tree.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::fuzz {

/// `quirks`: the usb-storage quirks parameter the doctor reads ("" for none).
inline void run_read_only_commands(const topology::ScanResult& scan, const std::string& quirks = "") {
  namespace doctor = analysis::doctor;
  doctor::DoctorConfig dc;
  const doctor::ModelSharePredictor model;
  dc.predictor = &model;
  dc.usb_storage_quirks = quirks;
  const auto result = doctor::diagnose(scan.topology, dc);
  const report::DoctorReportInput in{result.findings, scan.diagnostics, result.controllers_checked,
                                     result.drives_checked};
  (void)report::render_doctor_text(in);
  const report::ViewInput view{scan.topology, scan.diagnostics};
  (void)report::render_drives_text(view);
  (void)report::render_ports_text(view);
  (void)report::render_topology_text(view);
  for (const std::string& doc : {report::render_doctor_json(in), report::render_drives_json(view),
                                 report::render_ports_json(view), report::render_topology_json(view)})
    expect(nlohmann::json::accept(doc), "every --json document parses");
}

}  // namespace usbsat::fuzz
