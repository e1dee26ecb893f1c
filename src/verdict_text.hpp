#pragma once
/// The one-sentence conclusion of a saturation verdict, for users: what shares what, the numbers, and what
/// to do about it. Pure text generation over GroupVerdict, golden-tested in attribution_test.cpp.
#include <string>

#include "src/attribution.hpp"
#include "topology/topology.hpp"

namespace usbsat::analysis {

/// Where a drive is plugged in, for the conclusion: "port 3" on a root hub, "port 2 of hub 2-1" behind a
/// hub; "" when `block` is not below a USB port.
std::string drive_where(const topology::Topology& t, topology::Vertex block);

/// A node for sentences: "controller 0000:03:00.0 (ASM1042)", "hub 2-1 (USB3.1 Hub)", "root hub usb4",
/// "PCIe port 0000:01:00.0 (PEX 8608 upstream)".
std::string describe_node(const topology::Topology& t, topology::Vertex v);

/// E.g. "sdb (port 1) and sdc (port 2) share the PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042): together 392
/// MB/s of 2×310 MB/s solo (63%) — move one to a port of another controller, such as a chipset port."
std::string conclusion(const GroupVerdict& v);

}  // namespace usbsat::analysis
