#include "src/cli/picture.hpp"

#include "src/cli/doctor_facts.hpp"
#include "src/cli/predict_input.hpp"

namespace usbsat::cli {

PictureFacts gather_picture_facts(const topology::ScanResult& scan, const HistoryContext& h) {
  PictureFacts f;
  const auto& t = scan.topology;
  if (t.controllers().empty()) return f;
  // The model's prediction once, for the doctor's shared_bandwidth and for the picture's drive labels.
  const auto current = predict_current(t, h);
  const auto result = diagnose_system(scan, h, kMaxSectorsTargetKb, &current.prediction, &current.at_ceiling);
  f.findings = result.findings;
  f.drives_checked = result.drives_checked;
  f.predict = to_report(t, current.problem, current.prediction, h.model);
  return f;
}

report::GraphModel topology_picture(const topology::Topology& t, const PictureFacts& facts, bool show_all) {
  return report::build_graph({t, facts.findings, facts.predict.drives, show_all});
}

}  // namespace usbsat::cli
