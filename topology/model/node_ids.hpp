#pragma once
/// What a vertex is called in ids and labels: its stable id, its raw product name, and a controller's own
/// PCIe link.
#include <string>

#include "topology/model/pcie_link.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// Stable id of a vertex: the PCI address for PCI hops and controllers, the H:C:T:L of a SCSI device, the
/// kernel name otherwise.
std::string node_id(const Topology& t, Vertex v);
/// What a vertex calls itself, raw (not escaped): vendor + model for controllers and PCI hops ("ASMedia
/// ASM1042"), the product string (else the hwdb model) for USB devices; "" otherwise. The resource labels
/// below and topology::describe_node() (which escapes it) share this one rule.
std::string node_product(const Topology& t, Vertex v);

/// A controller's own PCIe link: the one on the edge from its PCI parent when known, else its own attributes.
PcieLink controller_pcie_link(const Topology& t, Vertex c);

}  // namespace usbsat::topology
