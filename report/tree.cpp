#include "report/tree.hpp"

#include <map>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/table.hpp"
#include "topology/base/text.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/connectors.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

using topology::NodeKind;
using topology::Vertex;

std::string basename(const std::string& p) {
  const auto s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

class TreeWriter {
 public:
  explicit TreeWriter(const ViewInput& in) : in_(in), t_(in.topology) {
    for (std::size_t i = 0; i < t_.connectors().size(); ++i) {
      const auto& c = t_.connectors()[i];
      for (const auto& side : {c.usb2_port, c.usb3_port})
        if (side) port_connector_.emplace(*side, i);
    }
  }

  std::string run() {
    std::vector<Vertex> trees, disks;
    for (Vertex r : t_.roots()) (t_[r].kind == NodeKind::Block ? disks : trees).push_back(r);
    for (Vertex r : trees) node(r, "", "");
    if (!disks.empty()) {
      if (!trees.empty()) out_ += "\n";
      out_ += "Disks not on USB:\n";
      for (std::size_t i = 0; i < disks.size(); ++i)
        node(disks[i], i + 1 == disks.size() ? "└── " : "├── ", "    ");
    }
    return std::move(out_);
  }

 private:
  /// Children worth a line: hub interfaces are folded into the hub's line, empty ports into the hub's line
  /// unless show_empty_ports.
  std::vector<Vertex> shown_children(Vertex v) const {
    std::vector<Vertex> out;
    const auto kind = t_[v].kind;
    for (Vertex k : children(t_, v)) {
      if ((kind == NodeKind::Hub || kind == NodeKind::RootHub) && t_[k].kind == NodeKind::Interface) continue;
      if (t_[k].kind == NodeKind::Port && children(t_, k).empty() && !in_.show_empty_ports) continue;
      out.push_back(k);
    }
    return out;
  }

  void node(Vertex v, const std::string& lead, const std::string& cont) {
    // A port with a device plugged in shares one line with the device: "port 2 [..]: 1-4 0781:5581 ...".
    Vertex shown = v;
    std::string line;
    if (t_[v].kind == NodeKind::Port) {
      line = port_text(v);
      auto kids = children(t_, v);
      if (!kids.empty()) {
        shown = kids.front();
        line += ": " + line_for(shown);
      } else {
        line += ": empty";
      }
    } else {
      line = line_for(v);
      // On a terminal, long controller and PCI names are elided in the middle to fit the line.
      const auto kind = t_[v].kind;
      if (in_.style.width > 0 && (kind == NodeKind::Controller || kind == NodeKind::PciHop)) {
        const std::size_t lead_width = display_width(lead);
        if (in_.style.width > lead_width) line = elide_middle(line, in_.style.width - lead_width);
      }
    }
    out_ += lead + line + "\n";
    const auto kids = t_[shown].kind == NodeKind::ScsiDevice ? std::vector<Vertex>{} : shown_children(shown);
    const auto extra = leaf_lines(shown);
    const auto tunnel = tunnel_lines(shown);
    for (std::size_t i = 0; i < extra.size(); ++i)
      out_ += cont + (i + 1 == extra.size() && kids.empty() && tunnel.empty() ? "└── " : "├── ") + extra[i] +
              "\n";
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const bool last = i + 1 == kids.size() && tunnel.empty();
      node(kids[i], cont + (last ? "└── " : "├── "), cont + (last ? "    " : "│   "));
    }
    for (std::size_t i = 0; i < tunnel.size(); ++i)
      out_ += cont + (i + 1 == tunnel.size() ? "└── " : "├── ") + tunnel[i] + "\n";
  }

  /// Lines below a node that are not vertices of the graph: the displays whose DisplayPort tunnels ride the
  /// USB4 link of a device router.
  std::vector<std::string> leaf_lines(Vertex v) const {
    std::vector<std::string> out;
    if (t_[v].kind != NodeKind::Router || t_[v].as<topology::RouterInfo>().address.is_host()) return out;
    if (const auto l = topology::usb4_link_to(t_, v))
      for (const auto& d : l->display_connectors)
        out.push_back("display " + topology::describe_display(d) + ", " + topology::describe_dp_tunnel(d));
    return out;
  }

  std::string port_text(Vertex v) const {
    const auto& p = t_[v].as<topology::PortInfo>();
    std::vector<std::string> tags;
    if (auto it = port_connector_.find(v); it != port_connector_.end()) {
      const auto c = topology::summarize_connector(t_, it->second);
      tags.emplace_back(topology::to_string(c.speed_class));
      if (c.physical_location)
        if (auto where = topology::describe_location(*c.physical_location); !where.empty())
          tags.push_back(where);
    }
    if (p.peer) tags.push_back("peer " + basename(*p.peer));
    if (p.connect_type && *p.connect_type != "hotplug") tags.push_back(*p.connect_type);
    if (p.over_current_count.value_or(0) > 0)
      tags.push_back(fmt::format("{} over-current events", *p.over_current_count));
    return fmt::format("port {}{}", p.number, tags.empty() ? "" : " [" + topology::join(tags, ", ") + "]");
  }

  /// A device router's USB3 tunnel drawn below it: the SuperSpeed port it arrives at, the hub or device
  /// there, and the drives whose innermost tunnel it is (host router -> dock router -> hub -> drive).
  std::vector<std::string> tunnel_lines(Vertex v) const {
    if (t_[v].kind != NodeKind::Router || t_[v].as<topology::RouterInfo>().address.is_host()) return {};
    std::vector<std::string> out;
    if (const auto link = topology::usb4_link_to(t_, v)) {
      const auto& l = *link;
      std::vector<std::string> drives;
      for (Vertex b : topology::usb4_tunnel_disks(t_, l))
        if (const auto in = topology::usb4_link_of(t_, b); in && in->router == v)
          drives.push_back(t_[b].as<topology::BlockInfo>().name);
      for (Vertex p : l.usb_ports) {
        const auto& pi = t_[p].as<topology::PortInfo>();
        const auto kids = children(t_, p);
        if (!pi.hub_speed || !topology::is_superspeed(*pi.hub_speed) || kids.empty()) continue;
        const auto& d = t_[kids.front()].as<topology::UsbDeviceInfo>();
        out.push_back(fmt::format("USB3 tunnel at {}: {}{} {}{}", topology::node_id(t_, p),
                                  t_[kids.front()].kind == NodeKind::Hub ? "hub " : "", d.name,
                                  topology::describe_usb_device(d),
                                  drives.empty() ? "" : ", drives " + topology::join(drives, " ")));
      }
    }
    return out;
  }

  /// "4 ports (empty: 1 3)": the count is the hub's `maxchild`; without it "ports unknown", never the number
  /// of ports that happen to be seen (occupied ones, or the port directories of an unusable maxchild).
  std::string hub_ports_summary(Vertex v) const {
    std::vector<std::string> empty;
    for (Vertex k : children(t_, v))
      if (t_[k].kind == NodeKind::Port && children(t_, k).empty())
        empty.push_back(std::to_string(t_[k].as<topology::PortInfo>().number));
    const auto total = t_[v].as<topology::UsbDeviceInfo>().maxchild;
    std::string out = total ? fmt::format("{} port{}", *total, *total == 1 ? "" : "s") : "ports unknown";
    if (!empty.empty() && !in_.show_empty_ports) out += " (empty: " + topology::join(empty, " ") + ")";
    return out;
  }

  std::string line_for(Vertex v) const {
    const auto& n = t_[v];
    switch (n.kind) {
      case NodeKind::PciHop: {
        const auto& h = n.as<topology::PciHopInfo>();
        std::string s = "PCI " + h.bdf;
        if (h.vendor_id && h.device_id) s += fmt::format(" [{:04x}:{:04x}]", *h.vendor_id, *h.device_id);
        if (!h.model_name.empty()) s += " " + topology::display_string(h.model_name);
        if (!h.driver.empty()) s += " (" + h.driver + ")";
        if (!h.link.empty()) s += ", " + topology::pcie_link_text(h.link);
        return s;
      }
      case NodeKind::Controller: {
        const auto c = topology::summarize_controller(t_, v);
        std::string s = topology::describe_controller(c);
        if (!c.driver.empty()) s += " (" + c.driver + ")";
        if (!c.link.empty()) s += ", " + topology::pcie_link_text(c.link);
        if (!c.companions.empty()) s += ", companions " + topology::join(c.companions, " ");
        return s;
      }
      case NodeKind::RootHub: {
        const auto& d = n.as<topology::UsbDeviceInfo>();
        return fmt::format("{} root hub {}, {}", d.name,
                           d.speed ? topology::short_label(*d.speed) : "speed ?", hub_ports_summary(v));
      }
      case NodeKind::Hub: {
        const auto& d = n.as<topology::UsbDeviceInfo>();
        std::string s = fmt::format("hub {} {} {}, {}", d.name, topology::describe_usb_device(d),
                                    topology::describe_speed(d.speed, d.capable_speed), hub_ports_summary(v));
        if (d.hub_peer) s += ", peer " + basename(*d.hub_peer);
        return s;
      }
      case NodeKind::Device: {
        const auto& d = n.as<topology::UsbDeviceInfo>();
        return fmt::format("{} {} {}", d.name, topology::describe_usb_device(d),
                           topology::describe_speed(d.speed, d.capable_speed));
      }
      case NodeKind::Interface:
        return interface_line(n.as<topology::InterfaceInfo>());
      case NodeKind::ScsiDevice:
        return scsi_line(v);
      case NodeKind::Block:
        return block_line(n.as<topology::BlockInfo>(), std::nullopt);
      case NodeKind::Port:
        return port_text(v);
      case NodeKind::Router:
        return topology::describe_router(t_, v);
    }
    return {};
  }

  static std::string interface_line(const topology::InterfaceInfo& i) {
    std::string s = fmt::format("if {}", i.number);
    if (i.interface_class) {
      s += " " + usb_class_name(*i.interface_class);
      s += " " + format_class_triple(*i.interface_class, i.interface_subclass.value_or(0),
                                     i.interface_protocol.value_or(0));
    }
    s += i.driver.empty() ? ", no driver" : ", driver " + i.driver;
    if (i.storage == topology::StorageProtocol::Uas || i.storage == topology::StorageProtocol::Bot)
      s += fmt::format(" ({})", protocol_label(i.storage));
    if (i.uas_capable && i.storage != topology::StorageProtocol::Uas) {
      s += ", UAS alt setting present";
      if (i.uas_blocked_reason) s += ": not used (" + topology::display_string(*i.uas_blocked_reason) + ")";
    }
    return s;
  }

  std::string scsi_line(Vertex v) const {
    const auto& s = t_[v].as<topology::ScsiDeviceInfo>();
    std::vector<std::string> blocks;
    for (Vertex k : children(t_, v))
      if (t_[k].kind == NodeKind::Block) blocks.push_back(block_line(t_[k].as<topology::BlockInfo>(), v));
    if (!blocks.empty()) return topology::join(blocks, "; ");
    std::string line = "scsi " + s.hctl;
    for (const auto& x : {s.vendor, s.model})
      if (x) line += " " + topology::display_string(*x);
    if (s.type) line += fmt::format(", type {}", *s.type);
    return line + ", no block device";
  }

  std::string block_line(const topology::BlockInfo& b, std::optional<Vertex> scsi) const {
    std::vector<std::string> parts{b.name};
    if (b.size_bytes) parts.push_back(format_disk_size(*b.size_bytes));
    if (!b.usb) parts.push_back(b.transport.empty() ? "unknown transport" : b.transport);
    if (scsi) {
      const auto& s = t_[*scsi].as<topology::ScsiDeviceInfo>();
      if (auto i = topology::nearest(t_, *scsi, NodeKind::Interface)) {
        const auto p = t_[*i].as<topology::InterfaceInfo>().storage;
        if (auto l = protocol_label(p); !l.empty()) parts.emplace_back(l);
      }
      if (s.queue_depth) parts.push_back(fmt::format("qd {}", *s.queue_depth));
      parts.push_back("[" + s.hctl + "]");
    }
    if (auto model = topology::disk_model(b.vendor, b.model); !model.empty()) parts.push_back(model);
    if (b.max_sectors_kb) parts.push_back(fmt::format("max_sectors {} KiB", *b.max_sectors_kb));
    if (b.rotational) parts.emplace_back(*b.rotational ? "rotational" : "non-rotational");
    std::vector<std::string> mounts = b.mountpoints;
    for (const auto& p : b.partitions)
      mounts.insert(mounts.end(), p.mountpoints.begin(), p.mountpoints.end());
    if (!mounts.empty()) parts.push_back("mounted " + topology::display_string(topology::join(mounts, " ")));
    return topology::join(parts, " ");
  }

  const ViewInput& in_;
  const topology::Topology& t_;
  std::map<Vertex, std::size_t> port_connector_;
  std::string out_;
};

}  // namespace

std::string render_topology_text(const ViewInput& in) {
  if (in.topology.size() == 0) return "No devices found.\n";
  return TreeWriter(in).run();
}

}  // namespace usbsat::report
