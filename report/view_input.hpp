#pragma once
/// What the topology views (`topo`, `drives`, `ports`) render: the scanned topology, the diagnostics of the
/// scan, and presentation choices. src/ fills it; report/ never calls back into src/ (G15).
#include <span>

#include "report/style.hpp"

#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::report {

struct ViewInput {
  const topology::Topology& topology;
  std::span<const topology::Diagnostic> diagnostics;  ///< included in JSON; the text views leave them to src/
  bool show_empty_ports = false;                      ///< topo text: one line per empty port, not a summary
  TextStyle style{};  ///< text on a terminal: colour (drives: UAS/BOT) and the width tables and controller
                      ///< lines fit
};

}  // namespace usbsat::report
