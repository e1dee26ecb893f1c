#pragma once
/// The one-sentence conclusion of a saturation verdict, for users: what shares what, the numbers, and what
/// to do about it. Pure text generation over GroupVerdict, golden-tested in attribution_test.cpp.
#include <string>

#include "src/analysis/saturate/attribution.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::saturate {

/// E.g. "sdb (port 1) and sdc (port 2) share the PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042): together 392
/// MB/s of 2×310 MB/s solo (63%) — move one to a port of another controller, such as a chipset port."
std::string conclusion(const GroupVerdict& v);

}  // namespace usbsat::analysis::saturate
