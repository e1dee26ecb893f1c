#pragma once
/// The doctor's findings as report/ consumes them (`doctor`, `report`, `topo --dot`, `export`, `watch`): the
/// one conversion of the doctor's result into report input.
#include <span>
#include <vector>

#include "report/finding.hpp"
#include "src/analysis/doctor/finding.hpp"

namespace usbsat::cli {

report::FindingSeverity to_report(analysis::doctor::FindingSeverity s);

report::Finding to_report(const analysis::doctor::Finding& f);

/// Every finding, in the doctor's order.
std::vector<report::Finding> to_report(std::span<const analysis::doctor::Finding> findings);

}  // namespace usbsat::cli
