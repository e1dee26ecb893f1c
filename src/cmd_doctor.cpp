// usbsat doctor: scan, gather the few facts outside the topology, run the checks, render, exit by severity.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report/doctor_report.hpp"
#include "src/commands.hpp"
#include "src/diagnostics_printer.hpp"
#include "src/doctor.hpp"
#include "src/exit_codes.hpp"
#include "src/share_predictor.hpp"
#include "topology/scan.hpp"

namespace usbsat::cli {
namespace {

/// A sysfs attribute's value without the trailing newline; nullopt when it cannot be read.
std::optional<std::string> read_attr(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

int run_doctor(const Invocation& inv) {
  // 1. The topology; an unusable sysfs throws ScanError, which main() maps to exit code 3.
  auto scan = topology::scan_system();
  print_diagnostics(stderr, scan.diagnostics, inv.global);

  // 2. Nothing to check without a USB host controller (containers, VMs): say so and succeed.
  if (scan.topology.controllers().empty()) {
    if (inv.global.json) {
      const report::DoctorReportInput in{{}, scan.diagnostics, 0, 0};
      fmt::print("{}", report::render_doctor_json(in));
    }
    fmt::print(inv.global.json ? stderr : stdout,
               "usbsat doctor: no USB host controller found on this system; nothing to check.\n");
    return kExitOk;
  }

  // 3. The few facts that are not in the topology: the usb-storage quirks parameter and whether uas is
  // loaded.
  analysis::DoctorConfig config;
  config.usb_storage_quirks = read_attr("/sys/module/usb_storage/parameters/quirks");
  std::error_code ec;
  const bool uas_dir = std::filesystem::exists("/sys/module/uas", ec);
  if (!ec) config.uas_driver_loaded = uas_dir;
  config.max_sectors_target_kb = inv.doctor.max_sectors_target_kb;
  const analysis::ModelSharePredictor model;  // shared_bandwidth: predicted shares from the bandwidth model
  config.predictor = &model;

  // 4. The checks, then the rendering; the exit code is the worst severity.
  const auto result = analysis::diagnose(scan.topology, config);
  const report::DoctorReportInput in{result.findings, scan.diagnostics, result.controllers_checked,
                                     result.drives_checked};
  const std::string out = inv.global.json ? report::render_doctor_json(in) : report::render_doctor_text(in);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return analysis::doctor_exit_code(result);
}

}  // namespace usbsat::cli
