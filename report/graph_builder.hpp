#pragma once
/// The builder of the topology picture (graph_model.hpp's build_graph), one class over two files by concept:
/// graph_model.cpp draws the PCI tree, controllers, hubs, ports, drives and findings; graph_usb4.cpp the
/// USB4/Thunderbolt routers, their tunnels and the displays they carry. Internal to report/.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "report/graph_model.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/usb4_tunnels.hpp"

namespace usbsat::report::graph_detail {

using topology::NodeKind;
using topology::Vertex;

/// "1 2 4-16": port numbers with runs folded.
std::string number_ranges(const std::vector<unsigned>& n);
/// A capacity as a label says it ("400 MB/s"); "" when unknown.
std::string capacity_text(std::optional<topology::Bandwidth> b);
/// "a, b", or the one that is not empty.
std::string join_label(const std::string& a, const std::string& b);

class GraphBuilder {
 public:
  explicit GraphBuilder(const GraphInput& in);

  GraphModel run();

 private:
  std::size_t add(GraphNode n);
  void edge(std::string from, std::string to, std::string label, bool shared, std::string port = {});

  bool shared_below(Vertex v) const { return topology::drives_below(t_, v).size() >= 2; }
  /// Drawn as a node of its own: everything with show_all, else what has a drive below it.
  bool drawn(Vertex v) const { return in_.show_all || !topology::drives_below(t_, v).empty(); }

  void walk(Vertex v);

  /// A USB4/Thunderbolt router and the routers below it, each edge labelled with its link (speed x lanes).
  void router(Vertex v);

  /// The node a USB device is drawn as: its own, or the drive's it is folded into; "" when not drawn.
  std::string drawn_as(Vertex dev) const;

  /// Where a USB4 link meets the USB tree, so a reader sees the drives inside the dock: from the host router,
  /// a dashed line to the xHCI its tunnels arrive at (once per controller); from the link's device router,
  /// its USB3 tunnel as a dashed line to the hub (or device) where it arrives, labelled with its ceilings.
  void usb3_tunnel(const topology::Usb4LinkSummary& l, bool from_host);

  /// A Thunderbolt 3 dock's PCIe tunnel: a dashed line from its router to the dock's PCIe switch (drawn with
  /// the PCI tree, before the routers), labelled with the tunnel's capacity.
  void pcie_tunnels(Vertex router);

  /// The displays whose DisplayPort tunnels ride a USB4 link, drawn on its device router.
  void displays(const topology::Usb4LinkSummary& l);

  void pci_child(Vertex parent, Vertex k);

  /// A controller and its root hubs, one box: a title row, then one row per bus with its empty ports and
  /// whatever without a drive is plugged in there. A controller with no drive is a row of the summary.
  void controller(Vertex v);

  /// The rows of the summary node: controllers with no drive (without show_all).
  void summary();

  /// The ports of a hub (the node at `self`, its rows leaving from `port`). An occupied port with a drive
  /// below is an edge labelled with its connector; one without is a row of the hub's box; empty ports are
  /// one row (with show_all: every port a node of its own).
  void ports(Vertex hub, std::size_t self, const std::string& port);

  /// The USB devices (hubs too) at and below `v`, depth first.
  std::vector<std::string> usb_names(Vertex v) const;

  /// "port 3 [USB3 5G, USB3 side of usb1-port3, back upper left]": the connector behind a port.
  /// Without `with_side` (an edge's label) the USB2/USB3 side is left out: the topo tree says it.
  std::string port_line(Vertex v, bool with_side = true) const;

  /// The label of the link to a USB device: its speed and the capacity the model gives it.
  std::string usb_link_label(Vertex v) const;

  /// A hub or device plugged into `port` of `hub_id` (its row `from_port`); no port: a tree without a
  /// controller above it. A device with exactly one drive (and not show_all) is folded into the drive.
  void usb_child(const std::string& hub_id, std::optional<Vertex> port, Vertex v,
                 const std::string& from_port = {});

  topology::StorageProtocol storage_of(Vertex block) const;

  /// A whole disk; `usb` is its USB device (nullptr: not on USB), `folded` when the device is drawn here too.
  void drive(Vertex v, const topology::UsbDeviceInfo* usb, bool folded);

  /// A finding is shown at the first of its devices that is in the picture (a port counts as its occupant, a
  /// folded device as the node it is folded into): one row per finding, "WARNING 1: speed_below_capability",
  /// linking to its entry in the page; the node's tooltip holds the messages.
  void findings();

  static constexpr const char* kSummary = "controllers:no-drive";
  const GraphInput& in_;
  const topology::Topology& t_;
  GraphModel g_;
  std::set<std::string> ids_;
  std::set<std::string> joined_;  ///< host router -> xHCI joins drawn ("0-0>0000:00:0d.0")
  std::map<Vertex, std::size_t> port_connector_;
  std::map<std::string, std::string> alias_;  ///< a device not drawn as its own node -> the node showing it
  std::vector<std::string> summary_;          ///< controllers with no drive, one row each
  std::map<std::string, const results::DrivePrediction*> prediction_;
};

}  // namespace usbsat::report::graph_detail
