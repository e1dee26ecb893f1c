#pragma once
/// `usbsat ports`: physical connectors grouped by host controller — occupied (by what) or empty, how fast
/// they can go, where they are — and which drives share a controller, a hub or a PCIe link.
#include <string>

#include "report/view_input.hpp"

namespace usbsat::report {

/// {"controllers":[{"controller":{...},"pcie_uplink":[...],"connectors":[...],"drives":[...],
///   "hubs":[...]}],"shared_pcie_uplinks":[...],"diagnostics":[...]}
std::string render_ports_json(const ViewInput& in);
/// One block per controller: a connector table, then the hubs and the drives that share them.
std::string render_ports_text(const ViewInput& in);

}  // namespace usbsat::report
