#pragma once
/// One doctor finding, as the checks produce it: the one Finding type (topology/results/finding.hpp), which
/// report renders as it is (no mirror type, no conversion).
#include "topology/results/finding.hpp"

namespace usbsat::analysis::doctor {

using results::Finding;
using results::FindingSeverity;

}  // namespace usbsat::analysis::doctor
