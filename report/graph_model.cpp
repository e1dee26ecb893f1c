#include "report/graph_model.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "topology/bandwidth.hpp"
#include "topology/connectors.hpp"
#include "topology/describe.hpp"
#include "topology/escape.hpp"

namespace usbsat::report {
namespace {

using topology::NodeKind;
using topology::Vertex;

/// "1 2 4-16": port numbers with runs folded.
std::string number_ranges(const std::vector<unsigned>& n) {
  std::string out;
  for (std::size_t i = 0; i < n.size();) {
    std::size_t j = i;
    while (j + 1 < n.size() && n[j + 1] == n[j] + 1) ++j;
    out += (out.empty() ? "" : " ") + (j > i + 1    ? fmt::format("{}-{}", n[i], n[j])
                                       : j == i + 1 ? fmt::format("{} {}", n[i], n[j])
                                                    : std::to_string(n[i]));
    i = j + 1;
  }
  return out;
}

std::string capacity_text(std::optional<topology::Bandwidth> b) {
  return b ? fmt::format("{:.0f} MB/s", b->mbs()) : "";
}

std::string join_label(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + ", " + b;
}

class GraphBuilder {
 public:
  explicit GraphBuilder(const GraphInput& in) : in_(in), t_(in.topology) {
    for (std::size_t i = 0; i < t_.connectors().size(); ++i) {
      const auto& c = t_.connectors()[i];
      for (const auto& side : {c.usb2_port, c.usb3_port})
        if (side) port_connector_.emplace(*side, i);
    }
    for (const auto& p : in_.predictions) prediction_.emplace(p.dev, &p);
  }

  GraphModel run() {
    std::vector<Vertex> disks;
    for (Vertex r : t_.roots()) {
      if (t_[r].kind == NodeKind::Block)
        disks.push_back(r);
      else
        walk(r);
    }
    for (Vertex d : disks) drive(d, nullptr);
    findings();
    return std::move(g_);
  }

 private:
  void add(GraphNode n) {
    ids_.insert(n.id);
    g_.nodes.push_back(std::move(n));
  }

  bool shared_below(Vertex v) const { return topology::drives_below(t_, v).size() >= 2; }

  void walk(Vertex v) {
    const auto& n = t_[v];
    switch (n.kind) {
      case NodeKind::PciHop: {
        const auto& h = n.as<topology::PciHopInfo>();
        GraphNode g{h.bdf, "pci", {"PCI " + h.bdf}, {"box", "filled", "#e7e7f3", "", 1}, "", ""};
        if (!h.model_name.empty()) g.lines.push_back(topology::display_string(h.model_name));
        if (!h.link.empty()) g.lines.push_back("PCIe " + format_pcie_link(h.link));
        add(std::move(g));
        for (Vertex k : children(t_, v)) pci_child(v, k);
        return;
      }
      case NodeKind::Controller:
        controller(v);
        return;
      case NodeKind::Router:
        router(v);
        return;
      default:  // a USB tree without a controller above it (partial recordings): draw what is there
        usb_child("", std::nullopt, v);
        return;
    }
  }

  /// A USB4/Thunderbolt router and the routers below it, each edge labelled with its link.
  void router(Vertex v) {
    const auto& r = t_[v].as<topology::RouterInfo>();
    GraphNode g{r.name, "router", {"router " + r.name}, {"box", "filled", "#e2f0d9", "", 1}, "", ""};
    if (const auto what = topology::display_string(topology::node_product(t_, v)); !what.empty())
      g.lines.push_back(what);
    add(std::move(g));
    for (Vertex k : children(t_, v)) {
      walk(k);
      std::string label;
      for (const auto& l : topology::usb4_links(t_))
        if (l.router == k) label = topology::describe_usb4_link(l);
      g_.edges.push_back({r.name, topology::node_id(t_, k), label, false, false});
    }
  }

  void pci_child(Vertex parent, Vertex k) {
    const auto edge = topology::uplink(t_, k);
    std::string label;
    if (edge && t_[*edge].kind == topology::LinkKind::Pci && !t_[*edge].pcie.empty())
      label = join_label("PCIe " + format_pcie_link(t_[*edge].pcie),
                         capacity_text(topology::pcie_capacity(t_[*edge].pcie)));
    walk(k);
    g_.edges.push_back({std::string(topology::node_id(t_, parent)), topology::node_id(t_, k), label,
                        shared_below(k), false});
  }

  void controller(Vertex v) {
    const auto c = topology::summarize_controller(t_, v);
    GraphNode g{c.pci,
                "controller",
                {fmt::format("{} controller {}", topology::hcd_label(c.kind), c.pci)},
                {"box", "filled,bold", "#cfe2ff", "#084298", 2},
                "",
                ""};
    if (c.vendor_id && c.device_id)
      g.lines.push_back(fmt::format("[{:04x}:{:04x}]", *c.vendor_id, *c.device_id));
    if (!c.vendor.empty()) g.lines.push_back(topology::display_string(c.vendor));
    if (!c.name.empty()) g.lines.push_back(topology::display_string(c.name));
    if (!c.driver.empty()) g.lines.push_back("driver " + c.driver);
    add(std::move(g));
    const bool xhci = c.kind == topology::HcdKind::Xhci || c.kind == topology::HcdKind::Usb4;
    for (Vertex k : children(t_, v)) {
      if (t_[k].kind != NodeKind::RootHub) {
        walk(k);
        continue;
      }
      const auto& rh = t_[k].as<topology::UsbDeviceInfo>();
      root_hub(k);
      std::string label = rh.speed ? fmt::format("{} bus", topology::short_label(*rh.speed)) : "";
      // EHCI/OHCI/UHCI: one bus shared by every port; an xHCI root port has a link of its own.
      if (!xhci && rh.speed)
        label =
            join_label(label, capacity_text(topology::usb_shared_capacity(topology::usb_rate(*rh.speed, 1))));
      g_.edges.push_back({c.pci, rh.name, label, !xhci && shared_below(k), false});
    }
  }

  void root_hub(Vertex v) {
    const auto& d = t_[v].as<topology::UsbDeviceInfo>();
    GraphNode g{d.name,
                "root_hub",
                {d.name + " root hub", d.speed ? std::string(topology::short_label(*d.speed)) : "speed ?"},
                {"box", "filled,rounded", "#e3f2fd", "", 1},
                "",
                ""};
    add(std::move(g));
    ports(v, d.name);
  }

  /// The ports of a hub. An occupied port is folded into its occupant's node (its first line, as `topo` puts
  /// both on one line); empty ports become one "empty ports" node per hub, or one node each with
  /// show_empty_ports.
  void ports(Vertex hub, const std::string& hub_id) {
    std::vector<unsigned> empty;
    for (Vertex k : children(t_, hub)) {
      if (t_[k].kind != NodeKind::Port) continue;
      const auto& p = t_[k].as<topology::PortInfo>();
      const auto kids = children(t_, k);
      if (!kids.empty()) {
        for (Vertex dev : kids) usb_child(hub_id, k, dev);
      } else if (in_.show_empty_ports) {
        add({p.name, "port", {port_line(k), "empty"}, {"box", "dashed,rounded", "", "#adb5bd", 1}, "", ""});
        g_.edges.push_back({hub_id, p.name, "", false, false});
      } else {
        empty.push_back(p.number);
      }
    }
    if (!empty.empty()) {
      const std::string id = hub_id + ":empty";
      add({id,
           "empty_ports",
           {fmt::format("empty port{}", empty.size() == 1 ? "" : "s"), number_ranges(empty)},
           {"box", "dashed,rounded", "", "#adb5bd", 1},
           "",
           ""});
      g_.edges.push_back({hub_id, id, "", false, false});
    }
  }

  /// "port 3 [USB3 5G, USB3 side of usb1-port3, back upper left]": the connector behind a port.
  std::string port_line(Vertex v) const {
    const auto& p = t_[v].as<topology::PortInfo>();
    std::vector<std::string> tags;
    if (auto it = port_connector_.find(v); it != port_connector_.end()) {
      const auto c = topology::summarize_connector(t_, it->second);
      tags.emplace_back(topology::to_string(c.speed_class));
      if (c.usb2_port && c.usb3_port && p.hub_speed) {
        std::string side = topology::is_superspeed(*p.hub_speed) ? "USB3 side" : "USB2 side";
        if (c.id != p.name) side += " of " + c.id;
        tags.push_back(side);
      }
      if (c.physical_location)
        if (auto where = format_physical_location(*c.physical_location); !where.empty())
          tags.push_back(where);
    }
    if (p.connect_type && *p.connect_type != "hotplug") tags.push_back(*p.connect_type);
    if (p.over_current_count.value_or(0) > 0)
      tags.push_back(fmt::format("{} over-current events", *p.over_current_count));
    std::string out = fmt::format("port {}", p.number);
    for (std::size_t i = 0; i < tags.size(); ++i) out += (i == 0 ? " [" : ", ") + tags[i];
    return tags.empty() ? out : out + "]";
  }

  /// A hub or device plugged into `port` of `hub_id` (no port: a tree without a controller above it).
  void usb_child(const std::string& hub_id, std::optional<Vertex> port, Vertex v) {
    const auto& n = t_[v];
    if (n.kind != NodeKind::Hub && n.kind != NodeKind::Device && n.kind != NodeKind::RootHub) return;
    const auto& d = n.as<topology::UsbDeviceInfo>();
    if (n.kind == NodeKind::RootHub) {
      root_hub(v);
      return;
    }
    const auto blocks = topology::drives_below(t_, v);
    std::string label = d.speed ? std::string(topology::short_label(*d.speed)) : "";
    if (d.speed) {
      const auto rate = topology::usb_rate(*d.speed, d.rx_lanes.value_or(1));
      std::optional<topology::Bandwidth> cap;
      if (n.kind == NodeKind::Device && !blocks.empty())
        cap = topology::usb_drive_capacity(rate, storage_of(blocks.front()));
      else
        cap = topology::usb_shared_capacity(rate);
      label = join_label(label, capacity_text(cap));
    }
    std::vector<std::string> lines;
    if (port) {
      lines.push_back(port_line(*port));
      alias_.emplace(t_[*port].as<topology::PortInfo>().name, d.name);
    }
    const bool hub = n.kind == NodeKind::Hub;
    lines.push_back(hub ? "hub " + d.name : d.name);
    lines.push_back(topology::describe_usb_device(d));
    lines.push_back(topology::describe_speed(d.speed, d.capable_speed));
    GraphNode g{d.name,
                hub ? "hub" : "device",
                std::move(lines),
                {"box", "filled,rounded", hub ? "#ede7f6" : "#f8f9fa", "", 1},
                "",
                ""};
    if (topology::below_capability(d.speed, d.capable_speed)) {
      g.style.color = palette::kBelowCapability;
      g.style.penwidth = 2;
    }
    add(std::move(g));
    if (port) g_.edges.push_back({hub_id, d.name, label, shared_below(v), false});
    if (hub) {
      ports(v, d.name);
      return;
    }
    for (Vertex b : blocks) {
      drive(b, &d);
      g_.edges.push_back({d.name, t_[b].as<topology::BlockInfo>().name,
                          std::string(protocol_label(storage_of(b))), false, false});
    }
  }

  topology::StorageProtocol storage_of(Vertex block) const {
    if (auto i = topology::nearest(t_, block, NodeKind::Interface))
      return t_[*i].as<topology::InterfaceInfo>().storage;
    return topology::StorageProtocol::None;
  }

  /// A whole disk; `usb` is its USB device (nullptr: not on USB).
  void drive(Vertex v, const topology::UsbDeviceInfo* usb) {
    const auto& b = t_[v].as<topology::BlockInfo>();
    GraphNode g{b.name, "drive", {b.name}, {"cylinder", "filled", palette::kOtherDrive, "", 1}, "", ""};
    if (b.size_bytes) g.lines.front() += "  " + format_disk_size(*b.size_bytes);
    if (auto m = topology::disk_model(b.vendor, b.model); !m.empty()) g.lines.push_back(m);
    if (usb) {
      const auto proto = storage_of(v);
      std::string p(protocol_label(proto));
      if (b.queue_depth) p += fmt::format(" qd {}", *b.queue_depth);
      g.lines.push_back(p);
      if (proto == topology::StorageProtocol::Uas) g.style.fillcolor = palette::kUas;
      if (proto == topology::StorageProtocol::Bot) g.style.fillcolor = palette::kBot;
      if (topology::below_capability(usb->speed, usb->capable_speed)) {
        g.lines.push_back(fmt::format("below capability: {} of {}", topology::short_label(*usb->speed),
                                      topology::short_label(*usb->capable_speed)));
        g.style.color = palette::kBelowCapability;
        g.style.penwidth = 3;
      }
      if (auto it = prediction_.find(b.name); it != prediction_.end()) {
        g.lines.push_back(fmt::format("predicted {:.0f} MB/s", it->second->predicted_mbs));
        if (const auto& lim = it->second->bottleneck) {
          std::string kind = lim->kind;
          for (auto& ch : kind) ch = ch == '_' ? ' ' : ch;
          g.lines.push_back("limited by " + kind + " " + lim->node);
        }
      }
    } else {
      g.lines.push_back(b.transport.empty() ? "not on USB" : b.transport + ", not on USB");
    }
    add(std::move(g));
  }

  /// One note per node the doctor has findings about, beside it: "WARNING 1: speed_below_capability" per
  /// line, linking to the first finding's entry in the page. A finding is drawn at the first of its devices
  /// that is in the picture (a port counts as its occupant).
  void findings() {
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> by_node;
    for (std::size_t i = 0; i < in_.findings.size(); ++i) {
      for (const auto& d : in_.findings[i].devices) {
        const auto a = alias_.find(d);
        const std::string& id = a == alias_.end() ? d : a->second;
        if (!ids_.count(id)) continue;
        if (by_node[id].empty()) order.push_back(id);
        by_node[id].push_back(i);
        break;
      }
    }
    for (const auto& node : order) {
      const auto& list = by_node[node];
      auto worst = FindingSeverity::Info;
      GraphNode g{"findings:" + node, "finding", {}, {"note", "filled", "", "#495057", 1}, "", ""};
      for (std::size_t i : list) {
        const auto& f = in_.findings[i];
        worst = std::max(worst, f.severity);
        std::string sev(to_string(f.severity));
        for (auto& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        g.lines.push_back(fmt::format("{} {}: {}", sev, i + 1, f.id));
        g.tooltip +=
            (g.tooltip.empty() ? "" : " | ") + fmt::format("{}: {}", i + 1, topology::text_safe(f.message));
      }
      g.style.fillcolor = worst == FindingSeverity::Problem   ? palette::kProblem
                          : worst == FindingSeverity::Warning ? palette::kWarning
                                                              : palette::kInfo;
      g.url = fmt::format("#finding-{}", list.front() + 1);
      g_.nodes.push_back(std::move(g));
      g_.edges.push_back({node, "findings:" + node, "", false, true});
    }
  }

  const GraphInput& in_;
  const topology::Topology& t_;
  GraphModel g_;
  std::set<std::string> ids_;
  std::map<Vertex, std::size_t> port_connector_;
  std::map<std::string, std::string> alias_;  ///< occupied port name -> its occupant's node id
  std::map<std::string, const PredictRow*> prediction_;
};

}  // namespace

GraphModel build_graph(const GraphInput& in) {
  return GraphBuilder(in).run();
}

}  // namespace usbsat::report
