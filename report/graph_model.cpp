#include "report/graph_model.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/graph_builder.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/model/connectors.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace graph_detail {

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
  return b ? topology::bandwidth_text(*b) : "";
}

std::string join_label(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + ", " + b;
}

GraphBuilder::GraphBuilder(const GraphInput& in) : in_(in), t_(in.topology) {
  for (std::size_t i = 0; i < t_.connectors().size(); ++i) {
    const auto& c = t_.connectors()[i];
    for (const auto& side : {c.usb2_port, c.usb3_port})
      if (side) port_connector_.emplace(*side, i);
  }
  for (const auto& p : in_.predictions) prediction_.emplace(p.prediction.dev, &p.prediction);
}

GraphModel GraphBuilder::run() {
  std::vector<Vertex> disks;
  for (Vertex r : t_.roots()) {
    if (t_[r].kind == NodeKind::Block)
      disks.push_back(r);
    else
      walk(r);
  }
  for (Vertex d : disks) drive(d, nullptr, false);
  summary();
  findings();
  return std::move(g_);
}

std::size_t GraphBuilder::add(GraphNode n) {
  ids_.insert(n.id);
  g_.nodes.push_back(std::move(n));
  return g_.nodes.size() - 1;
}

void GraphBuilder::edge(std::string from, std::string to, std::string label, bool shared, std::string port) {
  g_.edges.push_back({std::move(from), std::move(to), std::move(label), shared, false, std::move(port)});
}

void GraphBuilder::walk(Vertex v) {
  const auto& n = t_[v];
  switch (n.kind) {
    case NodeKind::PciHop: {
      if (!drawn(v)) {
        for (Vertex k : children(t_, v)) walk(k);  // its controllers go to the summary
        return;
      }
      const auto& h = n.as<topology::PciHopInfo>();
      GraphNode g{h.bdf, "pci", {{"PCI " + h.bdf, "", "", "", true}}, {"box", "filled", "#e7e7f3", "", 1},
                  "",    ""};
      if (!h.model_name.empty()) g.lines.emplace_back(topology::display_string(h.model_name));
      if (!h.link.empty()) g.lines.emplace_back(topology::pcie_link_text(h.link));
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

void GraphBuilder::pci_child(Vertex parent, Vertex k) {
  const auto up = topology::uplink(t_, k);
  std::string label;
  if (up && t_[*up].kind == topology::LinkKind::Pci && !t_[*up].pcie.empty())
    label = join_label(topology::pcie_link_text(t_[*up].pcie),
                       capacity_text(topology::pcie_capacity(t_[*up].pcie)));
  walk(k);
  if (ids_.count(topology::node_id(t_, k)))
    edge(std::string(topology::node_id(t_, parent)), topology::node_id(t_, k), label, shared_below(k));
}

void GraphBuilder::controller(Vertex v) {
  const auto c = topology::summarize_controller(t_, v);
  std::string title = topology::controller_name(c.kind, c.pci);
  if (c.vendor_id && c.device_id) title += fmt::format(" [{:04x}:{:04x}]", *c.vendor_id, *c.device_id);
  if (!drawn(v)) {
    std::string buses;
    for (Vertex k : children(t_, v))
      if (t_[k].kind == NodeKind::RootHub) {
        buses += " " + t_[k].as<topology::UsbDeviceInfo>().name;
        alias_.emplace(t_[k].as<topology::UsbDeviceInfo>().name, kSummary);
      }
    alias_.emplace(c.pci, kSummary);
    summary_.push_back(join_label(title, topology::display_string(c.name)) +
                       (buses.empty() ? "" : ":" + buses));
    return;
  }
  GraphNode g{
      c.pci, "controller", {{title, "", "", "", true}}, {"box", "filled", "#cfe2ff", "#084298", 2}, "", ""};
  if (!c.vendor.empty() || !c.name.empty())
    g.lines.emplace_back(join_label(topology::display_string(c.vendor), topology::display_string(c.name)));
  const std::size_t self = add(std::move(g));
  const bool xhci = c.kind == topology::HcdKind::Xhci || c.kind == topology::HcdKind::Usb4;
  for (Vertex k : children(t_, v)) {
    if (t_[k].kind != NodeKind::RootHub) {
      walk(k);
      continue;
    }
    const auto& rh = t_[k].as<topology::UsbDeviceInfo>();
    alias_.emplace(rh.name, c.pci);
    std::string row =
        rh.name + " root hub" + (rh.speed ? " " + std::string(topology::short_label(*rh.speed)) : "");
    // EHCI/OHCI/UHCI: one bus shared by every port; an xHCI root port has a link of its own.
    const bool shared = !xhci && shared_below(k);
    if (!xhci && rh.speed)
      row = join_label(row + " bus",
                       capacity_text(topology::usb_shared_capacity(topology::usb_rate(*rh.speed, 1))));
    if (shared) row += ", shared";
    g_.nodes[self].lines.emplace_back(row, rh.name, "", shared ? "#ffd8a8" : "#e3f2fd", shared);
    ports(k, self, rh.name);
  }
}

void GraphBuilder::summary() {
  if (summary_.empty()) return;
  GraphNode g{
      kSummary,
      "summary",
      {{fmt::format("{} controller{} with no drive", summary_.size(), summary_.size() == 1 ? "" : "s"), "",
        "", "", true}},
      {"box", "filled,dashed", "#f8f9fa", "#adb5bd", 1},
      "",
      ""};
  for (auto& l : summary_) g.lines.emplace_back(std::move(l));
  add(std::move(g));
}

void GraphBuilder::ports(Vertex hub, std::size_t self, const std::string& port) {
  std::vector<unsigned> empty;
  const std::string hub_id = g_.nodes[self].id;
  for (Vertex k : children(t_, hub)) {
    if (t_[k].kind != NodeKind::Port) continue;
    const auto& p = t_[k].as<topology::PortInfo>();
    const auto kids = children(t_, k);
    if (kids.empty() && in_.show_all) {
      add({p.name,
           "port",
           std::vector<GraphLine>{GraphLine(port_line(k)), GraphLine("empty")},
           {"box", "dashed,rounded", "", "#adb5bd", 1},
           "",
           ""});
      edge(hub_id, p.name, "", false, port);
    } else if (kids.empty()) {
      empty.push_back(p.number);
    }
    for (Vertex dev : kids) {
      if (drawn(dev)) {
        usb_child(hub_id, k, dev, port);
        continue;
      }
      const auto& d = t_[dev].as<topology::UsbDeviceInfo>();
      alias_.emplace(p.name, hub_id);
      std::string below;
      for (const auto& name : usb_names(dev)) {
        alias_.emplace(name, hub_id);
        if (name != d.name) below += (below.empty() ? "; below it " : " ") + name;
      }
      g_.nodes[self].lines.emplace_back(fmt::format(
          "port {}: {}{} {}, {}{}", p.number, t_[dev].kind == NodeKind::Hub ? "hub " : "", d.name,
          topology::describe_usb_device(d), topology::describe_speed(d.speed, d.capable_speed), below));
    }
  }
  if (!empty.empty())
    g_.nodes[self].lines.emplace_back(
        fmt::format("empty port{} {}", empty.size() == 1 ? "" : "s", number_ranges(empty)), "", "", "");
}

std::vector<std::string> GraphBuilder::usb_names(Vertex v) const {
  std::vector<std::string> out;
  if (t_[v].kind == NodeKind::Hub || t_[v].kind == NodeKind::Device)
    out.push_back(t_[v].as<topology::UsbDeviceInfo>().name);
  for (Vertex k : children(t_, v))
    for (auto& n : usb_names(k)) out.push_back(std::move(n));
  return out;
}

std::string GraphBuilder::port_line(Vertex v, bool with_side) const {
  const auto& p = t_[v].as<topology::PortInfo>();
  std::vector<std::string> tags;
  if (auto it = port_connector_.find(v); it != port_connector_.end()) {
    const auto c = topology::summarize_connector(t_, it->second);
    tags.emplace_back(topology::to_string(c.speed_class));
    if (with_side && c.usb2_port && c.usb3_port && p.hub_speed) {
      std::string side = topology::is_superspeed(*p.hub_speed) ? "USB3 side" : "USB2 side";
      if (c.id != p.name) side += " of " + c.id;
      tags.push_back(side);
    }
    if (c.physical_location)
      if (auto where = topology::describe_location(*c.physical_location); !where.empty())
        tags.push_back(where);
  }
  if (p.connect_type && *p.connect_type != "hotplug") tags.push_back(*p.connect_type);
  if (p.over_current_count.value_or(0) > 0)
    tags.push_back(fmt::format("{} over-current events", *p.over_current_count));
  std::string out = fmt::format("port {}", p.number);
  for (std::size_t i = 0; i < tags.size(); ++i) out += (i == 0 ? " [" : ", ") + tags[i];
  return tags.empty() ? out : out + "]";
}

std::string GraphBuilder::usb_link_label(Vertex v) const {
  const auto& d = t_[v].as<topology::UsbDeviceInfo>();
  if (!d.speed) return "";
  const auto blocks = topology::drives_below(t_, v);
  const auto rate = topology::usb_rate(*d.speed, d.rx_lanes.value_or(1));
  const auto cap = t_[v].kind == NodeKind::Device && !blocks.empty()
                       ? topology::usb_drive_capacity(rate, storage_of(blocks.front()))
                       : topology::usb_shared_capacity(rate);
  return join_label(std::string(topology::short_label(*d.speed)), capacity_text(cap));
}

void GraphBuilder::usb_child(const std::string& hub_id, std::optional<Vertex> port, Vertex v,
                             const std::string& from_port) {
  const auto& n = t_[v];
  if (n.kind != NodeKind::Hub && n.kind != NodeKind::Device && n.kind != NodeKind::RootHub) return;
  const auto& d = n.as<topology::UsbDeviceInfo>();
  if (n.kind == NodeKind::RootHub) {
    GraphNode g{d.name,
                "root_hub",
                {{d.name + " root hub", d.name, "", "", true}},
                {"box", "filled,rounded", "#e3f2fd", "", 1},
                "",
                ""};
    ports(v, add(std::move(g)), d.name);
    return;
  }
  const auto blocks = topology::drives_below(t_, v);
  std::string label = usb_link_label(v);
  if (port) {
    label = port_line(*port, false) + "\n" + label;
    alias_.emplace(t_[*port].as<topology::PortInfo>().name, d.name);
  }
  const bool hub = n.kind == NodeKind::Hub;
  if (!hub && blocks.size() == 1 && !in_.show_all) {
    const auto& b = t_[blocks.front()].as<topology::BlockInfo>();
    alias_.emplace(d.name, b.name);
    if (port) alias_[t_[*port].as<topology::PortInfo>().name] = b.name;
    drive(blocks.front(), &d, true);
    if (port) edge(hub_id, b.name, label, false, from_port);
    return;
  }
  std::vector<GraphLine> lines{{hub ? "hub " + d.name : d.name, "", "", "", true},
                               {topology::describe_usb_device(d)},
                               {topology::describe_speed(d.speed, d.capable_speed)}};
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
  const std::size_t self = add(std::move(g));
  if (port) edge(hub_id, d.name, label, shared_below(v), from_port);
  if (hub) {
    ports(v, self, "");
    return;
  }
  for (Vertex b : blocks) {
    drive(b, &d, false);
    edge(d.name, t_[b].as<topology::BlockInfo>().name, std::string(protocol_label(storage_of(b))), false);
  }
}

topology::StorageProtocol GraphBuilder::storage_of(Vertex block) const {
  if (auto i = topology::nearest(t_, block, NodeKind::Interface))
    return t_[*i].as<topology::InterfaceInfo>().storage;
  return topology::StorageProtocol::None;
}

void GraphBuilder::drive(Vertex v, const topology::UsbDeviceInfo* usb, bool folded) {
  const auto& b = t_[v].as<topology::BlockInfo>();
  GraphNode g{b.name,
              "drive",
              {{b.name, "", "", "", true}},
              {"box", "filled,rounded", palette::kOtherDrive, "#495057", 1},
              "",
              ""};
  if (b.size_bytes) g.lines.front().text += "  " + format_disk_size(*b.size_bytes);
  if (auto m = topology::disk_model(b.vendor, b.model); !m.empty()) g.lines.emplace_back(m);
  if (usb) {
    const auto proto = storage_of(v);
    std::string p(protocol_label(proto));
    if (b.queue_depth) p += fmt::format(" qd {}", *b.queue_depth);
    if (folded)
      p = fmt::format("{}, {} {}", p, usb->name, topology::describe_speed(usb->speed, usb->capable_speed));
    g.lines.emplace_back(p);
    if (proto == topology::StorageProtocol::Uas) g.style.fillcolor = palette::kUas;
    if (proto == topology::StorageProtocol::Bot) g.style.fillcolor = palette::kBot;
    if (topology::below_capability(usb->speed, usb->capable_speed)) {
      g.lines.emplace_back(fmt::format("below capability: {} of {}", topology::short_label(*usb->speed),
                                       topology::short_label(*usb->capable_speed)));
      g.style.color = palette::kBelowCapability;
      g.style.penwidth = 3;
    }
    if (auto it = prediction_.find(b.name); it != prediction_.end()) {
      g.lines.emplace_back("predicted " + topology::mbs_text(it->second->predicted.mbs()));
      if (const auto& lim = it->second->bottleneck) {
        std::string kind(topology::to_string(lim->kind));
        for (auto& ch : kind) ch = ch == '_' ? ' ' : ch;
        g.lines.emplace_back("limited by " + kind + " " + lim->node);
      }
    }
  } else {
    g.lines.emplace_back(b.transport.empty() ? "not on USB" : b.transport + ", not on USB");
  }
  add(std::move(g));
}

void GraphBuilder::findings() {
  g_.finding_nodes.assign(in_.findings.size(), "");
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < g_.nodes.size(); ++i) index.emplace(g_.nodes[i].id, i);
  for (std::size_t i = 0; i < in_.findings.size(); ++i) {
    const auto& f = in_.findings[i];
    for (const auto& d : f.devices) {
      const auto a = alias_.find(d);
      const std::string& id = a == alias_.end() ? d : a->second;
      const auto at = index.find(id);
      if (at == index.end()) continue;
      auto& node = g_.nodes[at->second];
      std::string sev(to_string(f.severity));
      for (auto& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      const char* fill = f.severity == FindingSeverity::Problem   ? palette::kProblem
                         : f.severity == FindingSeverity::Warning ? palette::kWarning
                                                                  : palette::kInfo;
      node.lines.emplace_back(fmt::format("{} {}: {}", sev, i + 1, f.id), "",
                              fmt::format("#finding-{}", i + 1), fill);
      node.tooltip += (node.tooltip.empty() ? "" : " | ") +
                      fmt::format("{}: {}", i + 1, topology::escape_unprintable(f.message));
      g_.finding_nodes[i] = id;
      break;
    }
  }
}

}  // namespace graph_detail

std::string node_anchor(const std::string& node_id) {
  return "node-" + node_id;
}

GraphModel build_graph(const GraphInput& in) {
  return graph_detail::GraphBuilder(in).run();
}

}  // namespace usbsat::report
