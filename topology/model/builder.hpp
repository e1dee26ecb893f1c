#pragma once
/// TopologyBuilder: the only code that mutates a topology graph.
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// Collects nodes with the syspath of their parent, in any order, then lays out the graph in one
/// deterministic pass. Duplicates are rejected explicitly (a scanner that sees a device twice is a bug).
class TopologyBuilder {
 public:
  /// Add `node` below the node whose syspath is `parent_syspath` (nullopt: a root). `link` describes the
  /// edge from the parent. Returns false (and adds nothing) when a node with the same syspath exists.
  bool add(Node node, std::optional<std::string> parent_syspath, Link link = {});
  /// Whether a node with this syspath has been added.
  bool contains(std::string_view syspath) const;
  /// Mutable access to an added node (for scanners that fill in details later); nullptr when absent.
  Node* get(std::string_view syspath);

  /// Build the graph: children in natural order of their kernel names, nodes whose parent never
  /// appeared become roots (with a diagnostic), connectors are formed from port `peer` links and the
  /// USB2/USB3 halves of hubs are paired (UsbDeviceInfo::hub_peer).
  Topology finish(std::vector<Diagnostic>& diagnostics) &&;

 private:
  struct Pending {
    Node node;
    std::optional<std::string> parent;
    Link link;
  };
  /// The added nodes as a forest: each node's children and the roots, in the order they are laid out.
  struct Forest {
    std::vector<std::vector<std::size_t>> kids;
    std::vector<std::size_t> roots;
  };
  Forest forest(std::vector<Diagnostic>& diagnostics) const;
  /// Move the nodes into `t` depth-first (deterministic vertex numbers) and index them.
  void place(Topology& t, const Forest& f);
  static void learn_port_speeds(Topology& t);
  static void pair_connectors(Topology& t);
  static void pair_hub_halves(Topology& t);

  /// A deque: adding a node neither moves the nodes added before (a vector's growth copied them, about
  /// 1.3 MB on the large fixture, and touched fresh pages each time) nor invalidates what get() returned.
  std::deque<Pending> pending_;
  StringMap<std::size_t> index_;
};

}  // namespace usbsat::topology
