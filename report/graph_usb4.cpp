#include <string>

#include "report/graph_builder.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/model/connectors.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report::graph_detail {

void GraphBuilder::router(Vertex v) {
  const auto& r = t_[v].as<topology::RouterInfo>();
  GraphNode g{r.name, "router", {"router " + r.name}, {"box", "filled", "#e2f0d9", "", 1}, "", ""};
  if (const auto what = topology::display_string(topology::node_product(t_, v)); !what.empty())
    g.lines.emplace_back(what);
  add(std::move(g));
  for (Vertex k : children(t_, v)) {
    walk(k);
    if (!ids_.count(topology::node_id(t_, k))) continue;
    std::string label;
    const auto l = topology::usb4_link_to(t_, k);
    if (l) {
      label = topology::describe_usb4_link(*l);
      displays(*l);
    }
    edge(r.name, topology::node_id(t_, k), label, false);
    if (l) usb3_tunnel(*l, r.address.is_host());
    pcie_tunnels(k);
  }
}

std::string GraphBuilder::drawn_as(Vertex dev) const {
  if (const std::string id(topology::node_id(t_, dev)); ids_.count(id)) return id;
  const auto disks = topology::drives_below(t_, dev);
  if (disks.size() != 1) return {};
  const std::string id(topology::node_id(t_, disks.front()));
  return ids_.count(id) ? id : std::string{};
}

void GraphBuilder::usb3_tunnel(const topology::Usb4LinkSummary& l, bool from_host) {
  const std::string up(topology::node_id(t_, l.upstream));
  for (Vertex p : l.usb_ports) {
    if (const auto c = topology::controller_of(t_, p); from_host && c) {
      const std::string id(topology::node_id(t_, *c));
      if (ids_.count(id) && joined_.insert(up + ">" + id).second)
        g_.edges.push_back({up, id, topology::describe_host_router_join(), false, true, {}});
    }
    for (Vertex k : children(t_, p))
      if (const auto id = drawn_as(k); !id.empty())
        g_.edges.push_back({l.name, id, topology::describe_usb3_tunnel_edge(l), false, true, {}});
  }
}

void GraphBuilder::pcie_tunnels(Vertex router) {
  for (const auto& p : topology::pcie_tunnels(t_)) {
    if (p.router != router) continue;
    const std::string entry(topology::node_id(t_, p.entry));
    if (!ids_.count(entry)) continue;
    g_.edges.push_back(
        {p.name, entry, join_label("PCIe tunnel", capacity_text(p.capacity)), false, true, {}});
  }
}

void GraphBuilder::displays(const topology::Usb4LinkSummary& l) {
  for (const auto& d : l.display_connectors) {
    const std::string id = topology::display_string(d.name);
    add(GraphNode{id,
                  "display",
                  {"display " + topology::describe_display(d)},
                  {"box", "filled,rounded", "#fde2e4", "", 1},
                  "",
                  ""});
    edge(l.name, id, topology::describe_dp_tunnel(d), false);
  }
}

}  // namespace usbsat::report::graph_detail
