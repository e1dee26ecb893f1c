#pragma once
/// Step 3 of `usbsat saturate`: attribute() each group and pass, the conclusion text, into
/// report::SaturateReport (the one conversion of the saturate analysis into report input).
#include <optional>

#include "report/saturate_report.hpp"
#include "src/analysis/saturate/calibration.hpp"
#include "src/analysis/saturate/measure.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

/// A capacity a group's sequential pass measured (analysis/saturate/calibration.hpp), and where its report
/// is.
struct GroupCapacity {
  std::size_t group = 0, pass = 0;  ///< indices into the report's groups and that group's passes
  analysis::saturate::MeasuredCapacity capacity;
};

/// The report of a plan (dry run: no passes) or of a measurement (`m` set). `t` is the topology the plan
/// came from (nullptr for declared groups). `tolerance` forces attribute()'s tolerance. `capacities`, when
/// given, receives what each topology group's sequential read pass measured of a modelled resource.
report::SaturateReport to_report(const analysis::saturate::SaturatePlan& plan,
                                 const analysis::saturate::SaturateSettings& settings,
                                 const analysis::saturate::SaturateMeasurement* m,
                                 const topology::Topology* t, std::optional<double> tolerance = std::nullopt,
                                 std::vector<GroupCapacity>* capacities = nullptr);

/// After `capacities` were remembered: each group's pass says so (the "could be calibrated" note says it
/// was, with the figure).
void say_calibrated(report::SaturateReport& r, const std::vector<GroupCapacity>& capacities);

}  // namespace usbsat::cli
