#pragma once
/// Where the USB3 tunnels of USB4 links arrive (Topology::usb4_arrivals), indexed once by the builder, and
/// the router look-ups it shares with the capacity model's link summaries
/// (topology/capacity/usb4_tunnels.hpp).
#include <vector>

#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// The upstream router's port number the link leaves from: the farthest hop of the route string.
unsigned upstream_port(const RouterAddress& a);
/// The USB ports of the host xHCI joined to the upstream router's USB4 port `number`, and that port's link.
const Usb4PortInfo* usb4_port(const RouterInfo& r, unsigned number);
/// Whether a router is a root (a host router): without one there is no link, and no vertex needs a look.
/// Asked of the routers, not of the roots: the roots list every PCI tree first (TopologyBuilder), and on the
/// 10,000-device machine of tests/bench/scale_bench.py walking them once per drive was 4 % of `export`.
bool any_host_router(const Topology& t);
/// The USB ports link `up` -> `v`'s USB3 tunnel arrives at: from the host router, the host xHCI's ports on
/// the Type-C connector of the USB4 port the link leaves from; behind a device router, the indexed pairing
/// (chained_arrivals).
std::vector<Vertex> arrival_ports(const Topology& t, Vertex v, Vertex up, const Usb4Arrivals& arrivals);

/// Where every USB4 link's USB3 tunnel arrives (Topology::usb4_arrivals), in one pass over the routers in
/// depth-first order: from the host router, the host xHCI's ports on the Type-C connector of the USB4 port
/// the link leaves from; behind a device router, the pairing of chained_arrivals (usb4_arrivals.cpp). The
/// builder calls it once the structure is final.
Usb4Arrivals index_usb4_arrivals(const Topology& t);

}  // namespace usbsat::topology
