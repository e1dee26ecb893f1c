// `plan --predict`: the drives as they are plugged in now, as a flow problem for the model.
#include "src/analysis/model/demand.hpp"
#include "src/analysis/plan/internal.hpp"
#include "topology/base/text.hpp"

namespace usbsat::analysis::plan {

FlowProblem current_problem(const topology::Topology& t, const std::vector<std::string>& devices,
                            const std::map<std::string, Bandwidth, std::less<>>& per_drive,
                            const history::Store* store, const topology::CapacityModel& m) {
  // Which drives: every USB drive with a medium, or the named ones that are USB drives with a medium (the
  // one drive rule; the others are left out with a warning).
  std::vector<std::string> names;
  std::vector<topology::Diagnostic> left_out;
  if (devices.empty()) {
    for (const auto& d : common::usb_drives_with_media(t)) names.push_back(d.name);
  } else {
    const auto usb = common::usb_drives(t);
    for (const auto& d : devices) {
      const auto found = detail::find_usb_drive(usb, d);
      if (found.drive)
        names.push_back(found.drive->name);
      else
        left_out.push_back(
            {topology::Severity::Warning, std::string(topology::strip_dev_prefix(d)), found.problem});
    }
  }
  auto p = model::make_problem(t, model::demand_specs(t, names, per_drive, store, m), m);
  p.diagnostics.insert(p.diagnostics.begin(), left_out.begin(), left_out.end());
  return p;
}

}  // namespace usbsat::analysis::plan
