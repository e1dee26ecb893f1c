#pragma once
/// The doctor's findings as the renderers consume them: the one Finding type (topology/results/finding.hpp),
/// which the doctor returns and report renders with no conversion between them.
#include "topology/results/finding.hpp"

namespace usbsat::report {

using results::Finding;
using results::FindingSeverity;
using results::to_string;
using results::worst_severity;

}  // namespace usbsat::report
