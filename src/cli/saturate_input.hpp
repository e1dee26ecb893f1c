#pragma once
/// Step 3 of `usbsat saturate`: attribute() each group and pass, the conclusion text, into
/// report::SaturateReport (the one conversion of the saturate analysis into report input).
#include <optional>

#include "report/saturate_report.hpp"
#include "src/analysis/saturate/measure.hpp"
#include "topology/topology.hpp"

namespace usbsat::cli {

/// The report of a plan (dry run: no passes) or of a measurement (`m` set). `t` is the topology the plan
/// came from (nullptr for declared groups). `tolerance` forces attribute()'s tolerance.
report::SaturateReport build_report(const analysis::saturate::SaturatePlan& plan,
                                    const analysis::saturate::SaturateSettings& settings,
                                    const analysis::saturate::SaturateMeasurement* m,
                                    const topology::Topology* t,
                                    std::optional<double> tolerance = std::nullopt);

}  // namespace usbsat::cli
