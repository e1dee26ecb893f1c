#pragma once
/// `usbsat topo`: the whole topology as an indented tree, lsusb -t-like but complete — PCIe hops with
/// their links, controllers (kind, ids, names), root hubs, ports with their connector's speed class and
/// location, hubs, devices with VID:PID and speed, interfaces with class and driver, and the disks with
/// protocol, queue depth and size. Disks not on USB follow in their own section.
#include <string>

#include "report/view_input.hpp"

namespace usbsat::report {

std::string render_topology_text(const ViewInput& in);

}  // namespace usbsat::report
