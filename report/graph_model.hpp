#pragma once
/// The topology picture as data: nodes, edges and their styles, built purely from a scanned Topology, the
/// doctor's findings and the `plan --predict` shares. `topo --dot` writes it as DOT text (dot.hpp) and
/// `report` lays the same DOT out with Graphviz (graphviz_layout.hpp): one set of styling rules for both.
///
/// What is drawn (issue 21: the drives in view, as lstopo collapses what does not matter): PCIe hops ->
/// controllers -> hubs -> drives. A controller and its root hubs are one box, each bus a row of it; a
/// connector is the label of the edge to what is plugged in; the empty ports of a hub are one row of its box;
/// a USB device with one drive is folded into the drive's node, and a device or hub with no drive below it is
/// one row of the box it is plugged into; controllers with no drive at all are one summary node. With
/// show_all everything is a node of its own (one per empty port), as `topo --all`. Interfaces and SCSI
/// devices are folded into the drive (which names the protocol). Disks not on USB stand alone. The doctor's
/// findings are rows of the node they concern, each linking to its entry on the page.
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "report/finding.hpp"
#include "report/plan_report.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::report {

/// How a node looks (DOT attribute values; empty = Graphviz's default).
struct NodeStyle {
  std::string shape;      ///< "box", "cylinder", "note", "plaintext"
  std::string style;      ///< "filled,rounded"
  std::string fillcolor;  ///< "#b7e4c7"
  std::string color;      ///< the border
  double penwidth = 1;
  bool operator==(const NodeStyle&) const = default;
};

/// One row of a node's label.
struct GraphLine {
  std::string text;
  std::string port;  ///< a DOT port: edges can leave from this row ("usb4"), "" none
  std::string url;   ///< a link inside the page ("#finding-2"), "" none
  std::string fill;  ///< the row's background colour, "" none
  bool bold = false;
  GraphLine(std::string t = {}, std::string p = {}, std::string u = {}, std::string f = {}, bool b = false)
      : text(std::move(t)), port(std::move(p)), url(std::move(u)), fill(std::move(f)), bold(b) {}
  bool operator==(const GraphLine&) const = default;
};

/// One node of the picture.
struct GraphNode {
  std::string id;  ///< stable: BDF, kernel name ("2-1", "sdb"), port name (show_all), "controllers:no-drive"
  std::string kind;              ///< "pci", "controller", "root_hub" (no controller above), "hub", "port",
                                 ///< "device", "drive", "router", "display" (on a USB4 link), "summary"
  std::vector<GraphLine> lines;  ///< the label, one row per line (device strings already text-safe)
  NodeStyle style;
  std::string tooltip;  ///< longer text (the messages of its findings), may be empty
  std::string url;      ///< a link inside the page, may be empty
  bool operator==(const GraphNode&) const = default;
};

/// One edge: parent -> child.
struct GraphEdge {
  std::string from, to;
  std::string label;      ///< "port 1 [USB3 5G]\n5G, 450 MB/s", "PCIe 5 GT/s x1, 400 MB/s"
  bool shared = false;    ///< at least two drives behind this link: drawn thick and orange
  bool note = false;      ///< a dashed line without arrow
  std::string from_port;  ///< the row of `from` it leaves from ("usb4"), "" the node
  bool operator==(const GraphEdge&) const = default;
};

struct GraphModel {
  std::vector<GraphNode> nodes;  ///< in topology order (depth first), then disks not on USB, then summary
  std::vector<GraphEdge> edges;
  std::vector<std::string> finding_nodes;  ///< per finding (in order): the id of the node showing it, or ""
};

/// The SVG/HTML id of a node's drawing ("node-sdb"): what a finding's entry on the page links to.
std::string node_anchor(const std::string& node_id);

/// What the picture is built from. `findings` and `predictions` may be empty.
struct GraphInput {
  const topology::Topology& topology;
  std::span<const Finding> findings;
  std::span<const PredictRow> predictions;
  bool show_all = false;  ///< everything a node of its own (one per empty port), as `topo --all`
};

/// Build the picture. Pure and deterministic.
GraphModel build_graph(const GraphInput& in);

/// The colours of the legend, shared by the picture and the HTML page.
namespace palette {
inline constexpr const char* kUas = "#b7e4c7";
inline constexpr const char* kBot = "#ffe08a";
inline constexpr const char* kOtherDrive = "#e9ecef";
inline constexpr const char* kBelowCapability = "#d00000";
inline constexpr const char* kShared = "#e8590c";
inline constexpr const char* kProblem = "#f8d7da";
inline constexpr const char* kWarning = "#fff3cd";
inline constexpr const char* kInfo = "#d1ecf1";
}  // namespace palette

}  // namespace usbsat::report
