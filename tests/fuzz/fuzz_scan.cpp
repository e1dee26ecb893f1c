// Fuzz target: the whole read-only pipeline on a hostile sysfs. The in-memory system of the scan's unit tests
// (tests/support/fake_system.hpp) is the skeleton; the input rewrites some of its attribute files
// (descriptors, speeds, sizes, links' text, mountinfo...) with arbitrary bytes. Records: one byte picks the
// file, the value runs to the next 0xff byte. Then scan → doctor → the drives/topology/doctor renderers, text
// and JSON: one bad device is a diagnostic, never a crash, a hang or output that is not JSON.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/doctor_report.hpp"
#include "report/drives_view.hpp"
#include "report/json_topology.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "src/cli/doctor_input.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/support/fake_system.hpp"
#include "topology/scan.hpp"

using usbsat::fuzz::expect;
namespace tp = usbsat::topology;
namespace doctor = usbsat::analysis::doctor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const usbsat::testing::FakeSource skeleton = usbsat::testing::fake::system();
  static const std::vector<std::string> files = [] {
    auto f = skeleton.file_paths();
    f.push_back("/mi");  // the mountinfo text file
    return f;
  }();
  usbsat::testing::FakeSource source = skeleton;
  std::size_t i = 0;
  while (i < size) {
    const std::string& path = files[data[i] % files.size()];
    std::size_t end = i + 1;
    while (end < size && data[end] != 0xff) ++end;
    std::string value(reinterpret_cast<const char*>(data) + i + 1, end - i - 1);
    if (path == "/mi")
      source.text_file(path, std::move(value));
    else
      source.raw_file(path, std::move(value));
    i = end + 1;
  }
  tp::ScanConfig config;
  config.mountinfo_path = "/mi";
  config.include_virtual_block = (size & 1) != 0;
  const tp::ScanResult scan = tp::scan(source, config);

  doctor::DoctorConfig dc;
  const doctor::ModelSharePredictor model;
  dc.predictor = &model;
  dc.usb_storage_quirks = "174c:55aa:u";
  const auto result = doctor::diagnose(scan.topology, dc);
  const auto findings = usbsat::cli::to_report(result.findings);
  const usbsat::report::DoctorReportInput in{findings, scan.diagnostics, result.controllers_checked,
                                             result.drives_checked};
  (void)usbsat::report::render_doctor_text(in);
  const usbsat::report::ViewInput view{scan.topology, scan.diagnostics};
  (void)usbsat::report::render_drives_text(view);
  for (const std::string& json :
       {usbsat::report::render_doctor_json(in), usbsat::report::render_drives_json(view),
        usbsat::report::render_topology_json(view)})
    expect(nlohmann::json::accept(json), "every --json document parses");
  return 0;
}
