#pragma once
/// `usbsat topo --json`: the whole graph as nested objects, every recorded attribute, deterministic order:
/// {"roots":[{"kind":"controller","id":"0000:00:14.0",...,"children":[...]}],"connectors":[...],
///  "diagnostics":[...]}. Unknown attributes are null.
#include <string>

#include "report/json_common.hpp"
#include "report/view_input.hpp"

namespace usbsat::report {

/// One node with all its attributes and (recursively) its children.
Json json_node(const topology::Topology& t, topology::Vertex v);
std::string render_topology_json(const ViewInput& in);

}  // namespace usbsat::report
