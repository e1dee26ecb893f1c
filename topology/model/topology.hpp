#pragma once
/// The Topology holder: one Boost.Graph of PCI hops, controllers, hubs, ports, devices, interfaces, SCSI
/// devices and block devices, built once by TopologyBuilder and immutable afterwards.
///
/// Edges always point from parent to child, and every vertex has at most one parent (the graph is a forest):
///   PciHop -> PciHop | Controller            (LinkKind::Pci, the child's PCIe link)
///   Controller -> RootHub                    (Internal)
///   RootHub | Hub -> Port                    (Internal)
///   Port -> Hub | Device                     (LinkKind::Usb, negotiated speed)
///   Hub | Device -> Interface                (Internal)
///   Interface -> ScsiDevice -> Block         (Internal)
/// Block devices that are not below USB (NVMe, SATA, virtio) are roots of their own.
/// Children are stored in a deterministic order (natural order of their kernel names, so port 2 before
/// port 10), which makes every renderer's output identical across runs.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "topology/base/string_map.hpp"
#include "topology/model/link.hpp"
#include "topology/model/node.hpp"

namespace usbsat::topology {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Node, Link>;
using Vertex = Graph::vertex_descriptor;
using Edge = Graph::edge_descriptor;

/// A physical connector: a USB2 port and its `peer` USB3 port, or a lone port of either kind.
struct Connector {
  std::string id;       ///< stable id: the USB2 port's name if any, else the USB3 port's ("usb1-port3")
  Vertex controller{};  ///< the host controller the ports belong to
  Vertex hub{};         ///< the (root) hub vertex owning the USB2 side (or the lone side)
  std::optional<Vertex> usb2_port;  ///< port on a USB 2.0 bus (speed <= 480)
  std::optional<Vertex> usb3_port;  ///< port on a SuperSpeed bus
};

/// Where the USB3 tunnels of USB4 links arrive, indexed once when the topology is built
/// (usb4_arrivals.hpp's index_usb4_arrivals): every query of a drive's tunnel is then a look-up, not a walk
/// of every router with a sort of its siblings (cubic in the routers behind a device router, issue 41).
struct Usb4Arrivals {
  /// Device router behind another device router -> the hub port of the upstream router's USB3 hub its tunnel
  /// arrives at (when the pairing is known); indexed by vertex.
  std::vector<std::optional<Vertex>> chained_port;
  /// USB port -> the device router whose USB3 tunnel arrives there; indexed by vertex.
  std::vector<std::optional<Vertex>> router_at;
};

class Topology {
 public:
  const Graph& graph() const { return g_; }
  const Node& operator[](Vertex v) const { return g_[v]; }
  const Link& operator[](Edge e) const { return g_[e]; }
  std::size_t size() const { return boost::num_vertices(g_); }

  /// The vertex whose syspath is exactly `syspath`.
  std::optional<Vertex> find(std::string_view syspath) const;
  /// The vertex of a USB device, port or block device by kernel name ("2-1.4", "usb1-port3", "sda").
  std::optional<Vertex> find_by_name(std::string_view name) const;
  /// Vertices without a parent, in deterministic order.
  const std::vector<Vertex>& roots() const { return roots_; }
  /// All host controllers, in deterministic order (depth-first order of the forest).
  const std::vector<Vertex>& controllers() const { return controllers_; }
  /// All connectors of all controllers, in deterministic order.
  const std::vector<Connector>& connectors() const { return connectors_; }
  /// The USB3 tunnel ends of the USB4 links (empty without a thunderbolt bus).
  const Usb4Arrivals& usb4_arrivals() const { return usb4_arrivals_; }

 private:
  friend class TopologyBuilder;
  friend const std::vector<Vertex>& of_kind(const Topology& t, NodeKind k);
  friend const std::vector<Vertex>& block_devices(const Topology& t);
  friend std::optional<std::size_t> block_rank(const Topology& t, Vertex v);
  friend std::optional<std::size_t> connector_of(const Topology& t, Vertex port);
  /// Fills the kind, disk and connector indexes below from the finished graph and connectors_ (the builder
  /// calls it once the structure is final), so the queries over them take no walk of the whole graph.
  void index_vertices();
  void index_connectors();

  Graph g_;
  StringMap<Vertex> by_syspath_;
  StringMap<Vertex> by_name_;
  std::vector<Vertex> roots_;
  std::vector<Vertex> controllers_;
  std::vector<Connector> connectors_;
  std::array<std::vector<Vertex>, kNodeKinds> by_kind_;      ///< of_kind(), depth-first
  std::vector<Vertex> blocks_;                               ///< block_devices()
  std::vector<std::optional<std::size_t>> block_rank_;       ///< vertex -> its index in blocks_
  std::vector<std::optional<std::size_t>> connector_index_;  ///< port vertex -> its index in connectors_
  Usb4Arrivals usb4_arrivals_;                               ///< usb4_arrivals()
};

// ---- queries: free functions over a const Topology -------------------------------------------------

/// The parent of `v`, if any.
std::optional<Vertex> parent(const Topology& t, Vertex v);
/// The children of `v` in stored (deterministic) order.
std::vector<Vertex> children(const Topology& t, Vertex v);
/// The link from v's parent to v, if v has a parent.
std::optional<Edge> uplink(const Topology& t, Vertex v);
/// All ancestors of `v`, nearest first.
std::vector<Vertex> ancestors(const Topology& t, Vertex v);
/// The nearest ancestor (or `v` itself) of kind `k`.
std::optional<Vertex> nearest(const Topology& t, Vertex v, NodeKind k);
/// The host controller above `v` (or `v` itself).
std::optional<Vertex> controller_of(const Topology& t, Vertex v);
/// The nearest USB device above `v` that is a Device or Hub (or `v` itself) — the drive's USB device.
std::optional<Vertex> usb_device_of(const Topology& t, Vertex v);
/// Hubs strictly between the root hub and USB device `dev`, root side first.
std::vector<Vertex> hub_chain(const Topology& t, Vertex dev);
/// PCI ancestors of controller `c` that have link attributes, nearest first (empty for integrated
/// controllers).
std::vector<Vertex> pcie_uplink(const Topology& t, Vertex c);
/// All vertices of kind `k` in depth-first (deterministic) order (indexed when the topology was built).
const std::vector<Vertex>& of_kind(const Topology& t, NodeKind k);
/// All whole-disk block devices, sorted by name naturally (sda, sdb, ..., sdaa; nvme0n1; vda).
const std::vector<Vertex>& block_devices(const Topology& t);
/// The position of whole disk `v` in block_devices(), if it is one.
std::optional<std::size_t> block_rank(const Topology& t, Vertex v);
/// The connector a port belongs to (indexed: no search).
std::optional<std::size_t> connector_of(const Topology& t, Vertex port);
/// The device (Hub or Device) plugged into connector `c`, from either side.
std::optional<Vertex> occupant(const Topology& t, const Connector& c);

/// Natural ("version") ordering of kernel names: "usb1-port2" < "usb1-port10", "sdb" < "sdaa".
bool natural_less(std::string_view a, std::string_view b);

}  // namespace usbsat::topology
