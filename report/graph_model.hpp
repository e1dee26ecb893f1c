#pragma once
/// The topology picture as data: nodes, edges and their styles, built purely from a scanned Topology, the
/// doctor's findings and the `plan --predict` shares. `topo --dot` writes it as DOT text (dot.hpp) and
/// `report` lays the same DOT out with Graphviz (graphviz_layout.hpp): one set of styling rules for both.
///
/// What is drawn: PCIe hops -> controllers -> root hubs -> hubs / devices -> drives. As in `topo`, an
/// occupied port (its connector: speed class, USB2/USB3 side, location) is the first line of its occupant's
/// node, and the empty ports of a hub are one "empty ports" node (one node each with show_empty_ports), which
/// keeps a 300-device machine readable and its layout fast. Interfaces and SCSI devices are folded into the
/// device -> drive edge (which names the protocol). Disks not on USB stand alone. The doctor's findings are
/// one note per node they concern, beside it.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "report/finding.hpp"
#include "report/plan_report.hpp"
#include "topology/topology.hpp"

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

/// One node of the picture.
struct GraphNode {
  std::string id;                  ///< stable: BDF, kernel name ("2-1", "sdb"), "usb1:empty", "findings:sdb"
  std::string kind;                ///< "pci", "controller", "root_hub", "hub", "port", "empty_ports",
                                   ///< "device", "drive", "finding", "router"
  std::vector<std::string> lines;  ///< the label, one entry per line (device strings already text-safe)
  NodeStyle style;
  std::string tooltip;  ///< longer text (finding message), may be empty
  std::string url;      ///< a link inside the page ("#finding-1"), may be empty
  bool operator==(const GraphNode&) const = default;
};

/// One edge: parent -> child (or node -> finding note).
struct GraphEdge {
  std::string from, to;
  std::string label;    ///< "USB3 5G, 450 MB/s", "PCIe 5 GT/s x1, 400 MB/s", "UAS"
  bool shared = false;  ///< at least two drives behind this link: drawn thick and orange
  bool note = false;    ///< the dashed line to a finding
  bool operator==(const GraphEdge&) const = default;
};

struct GraphModel {
  std::vector<GraphNode> nodes;  ///< in topology order (depth first), then disks not on USB, then findings
  std::vector<GraphEdge> edges;
};

/// What the picture is built from. `findings` and `predictions` may be empty.
struct GraphInput {
  const topology::Topology& topology;
  std::span<const Finding> findings;
  std::span<const PredictRow> predictions;
  bool show_empty_ports = false;  ///< one node per empty port instead of one per hub
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
