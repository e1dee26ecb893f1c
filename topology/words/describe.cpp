#include "topology/words/describe.hpp"

#include <fmt/format.h>

#include "topology/base/string_table.hpp"
#include "topology/base/text.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::topology {

std::string describe_usb_device(const topology::UsbDeviceInfo& d) {
  std::string out;
  out = usb_ids(d);
  const std::string vendor = d.manufacturer ? *d.manufacturer : d.vendor_name;
  const std::string product = d.product ? *d.product : d.model_name;
  for (const auto* s : {&vendor, &product})
    if (!s->empty()) out += (out.empty() ? "" : " ") + display_string(*s);
  return out;
}

// A node's kind in sentences ("the bottleneck is the hub 3-1 (...)"); to_string(NodeKind) is the JSON token.
constexpr StringTable<topology::NodeKind, 10> kNodeKindWords{{{
    {topology::NodeKind::PciHop, "PCIe port"},
    {topology::NodeKind::Controller, "controller"},
    {topology::NodeKind::RootHub, "root hub"},
    {topology::NodeKind::Hub, "hub"},
    {topology::NodeKind::Port, "port"},
    {topology::NodeKind::Device, "device"},
    {topology::NodeKind::Interface, "interface"},
    {topology::NodeKind::ScsiDevice, "SCSI device"},
    {topology::NodeKind::Block, "disk"},
    {topology::NodeKind::Router, "router"},
}}};

std::string describe_controller(const topology::ControllerSummary& c) {
  std::string out = controller_name(c.kind, c.pci);
  if (c.vendor_id && c.device_id) out += " [" + topology::format_vid_pid(*c.vendor_id, *c.device_id) + "]";
  for (const auto* s : {&c.vendor, &c.name})
    if (!s->empty()) out += " " + display_string(*s);
  return out;
}

std::string short_pci(const std::string& bdf) {
  return bdf.rfind("0000:", 0) == 0 ? bdf.substr(5) : bdf;
}

std::string disk_model(const std::optional<std::string>& vendor, const std::optional<std::string>& model) {
  std::string out;
  for (const auto* s : {&vendor, &model})
    if (*s && !(*s)->empty()) out += (out.empty() ? "" : " ") + display_string(**s);
  return out;
}

std::string describe_speed(std::optional<topology::UsbSpeed> speed,
                           std::optional<topology::UsbSpeed> capable) {
  std::string out = speed ? std::string(topology::short_label(*speed)) : "speed ?";
  if (below_capability(speed, capable)) out += fmt::format(" (capable {})", topology::short_label(*capable));
  return out;
}

bool below_capability(std::optional<topology::UsbSpeed> speed, std::optional<topology::UsbSpeed> capable) {
  return speed && capable && *capable > *speed && *capable >= topology::UsbSpeed::High;
}

std::string describe_node(const topology::Topology& t, topology::Vertex v) {
  using topology::NodeKind;
  const auto& n = t[v];
  const std::string what = display_string(topology::node_product(t, v));
  const std::string who =
      n.kind == NodeKind::Controller
          ? controller_name(n.as<topology::ControllerInfo>().kind, topology::node_id(t, v))
          : fmt::format("{} {}", kNodeKindWords.name(n.kind, "node"), topology::node_id(t, v));
  return who + (what.empty() ? "" : " (" + what + ")");
}

std::string drive_where(const topology::Topology& t, topology::Vertex block) {
  const auto dev = topology::usb_device_of(t, block);
  if (!dev) return {};
  const auto port = topology::parent(t, *dev);
  if (!port || t[*port].kind != topology::NodeKind::Port) return {};
  const auto& info = t[*port].as<topology::PortInfo>();
  const auto hub = topology::parent(t, *port);
  if (hub && t[*hub].kind == topology::NodeKind::Hub)
    return fmt::format("port {} of hub {}", info.number, topology::node_id(t, *hub));
  return fmt::format("port {}", info.number);
}

std::string usb_ids(const topology::UsbDeviceInfo& d) {
  if (!d.vendor_id || !d.product_id) return {};
  return topology::format_vid_pid(*d.vendor_id, *d.product_id);
}

std::string describe_drive(const topology::UsbDeviceInfo& u, std::string_view name) {
  std::string who = display_string(u.product ? *u.product : u.model_name);
  const std::string maker = u.manufacturer ? display_string(*u.manufacturer) : std::string();
  if (!maker.empty() && who.find(maker) == std::string::npos) who = who.empty() ? maker : maker + " " + who;
  const std::string ids = usb_ids(u);
  if (!ids.empty()) who = who.empty() ? ids : who + ", " + ids;
  const std::string safe_name = escape_unprintable(name);
  return who.empty() ? safe_name : safe_name + " (" + who + ")";
}

std::string describe_hub(const topology::UsbDeviceInfo& hub) {
  std::string out = "hub " + escape_unprintable(hub.name);
  if (hub.product) out += " (" + display_string(*hub.product) + ")";
  return out;
}

std::string controller_cell(topology::HcdKind k, std::string_view bdf) {
  return short_pci(std::string(bdf)) + " " + std::string(topology::hcd_label(k));
}

std::string controller_label(const topology::ControllerInfo& c) {
  std::string out = controller_name(c.kind, c.bdf);
  if (!c.model_name.empty()) out += " (" + display_string(c.model_name) + ")";
  return out;
}

std::string bandwidth_text(Bandwidth b) {
  const double v = b.mbs();
  return v >= 1000 ? mbs_text(v) : fmt::format("{:.3g} MB/s", v);
}

std::string mbs_figure(double mbs, int decimals) {
  return fmt::format("{:.{}f}", mbs, decimals);
}

std::string mbs_text(double mbs, int decimals) {
  return mbs_figure(mbs, decimals) + " MB/s";
}

std::string mbs_list_text(const std::vector<double>& mbs, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < mbs.size(); ++i) out += (i ? std::string(sep) : "") + mbs_figure(mbs[i]);
  return out + " MB/s";
}

std::string usb4_lanes_text(unsigned lane_gbps, unsigned lanes) {
  return fmt::format("{} Gb/s x {} lane{}", lane_gbps, lanes, lanes == 1 ? "" : "s");
}

std::string usb3_tunnel_ceiling_text(const topology::Usb4LinkSummary& l) {
  if (!l.usb3_tunnel) return {};
  std::string out = "up to " + gbit_text(*l.usb3_tunnel);
  if (l.usb3_tunnel_write && *l.usb3_tunnel_write != *l.usb3_tunnel)
    out += " reads, " + gbit_text(*l.usb3_tunnel_write) + " writes";
  return out;
}

std::string describe_usb4_link(const topology::Usb4LinkSummary& l) {
  std::string out = l.lane_gbps && l.lanes ? usb4_lanes_text(*l.lane_gbps, *l.lanes) : "speed ?";
  if (l.below_capability())
    out += " (capable " + usb4_lanes_text(l.capable->lane_gbps, l.capable->lanes) + ")";
  if (l.usable) out += ": " + gbit_text(*l.usable) + " usable";
  if (const auto dp = describe_dp_tunnels(l); !dp.empty()) out += ", " + dp;
  if (l.usb3_tunnel) out += ", USB3 tunnel " + usb3_tunnel_ceiling_text(l);
  if (l.usb3_isochronous) out += " (isochronous allocation " + gbit_text(*l.usb3_isochronous) + ")";
  return out;
}

std::string describe_pcie_tunnel(const topology::Topology& t, const topology::PcieTunnelSummary& p) {
  std::string out = "PCIe tunnel to " + t[p.entry].as<topology::PciHopInfo>().bdf;
  if (p.capacity) out += ", up to " + bandwidth_text(*p.capacity);
  if (p.capacity && p.link_share && p.controllers_pcie && *p.controllers_pcie < *p.link_share)
    out += fmt::format(" (its controller{}'s PCIe link{}; the link {})", p.controllers.size() == 1 ? "" : "s",
                       p.controllers.size() == 1 ? "" : "s", bandwidth_text(*p.link_share));
  return out;
}

std::string describe_display(const topology::DisplayConnectorInfo& d) {
  std::string out = display_string(d.name);
  if (d.edid)
    if (const auto what = display_string(topology::edid_text(*d.edid)); !what.empty()) out += " " + what;
  if (d.enabled == false) out += ", disabled";
  return out;
}

std::string describe_dp_tunnel(const topology::DisplayConnectorInfo& d) {
  const auto s = topology::dp_stream_of(d);
  if (s.reserved)
    return "DisplayPort tunnel " + gbit_text(s.rate) + " host to dock (HBR2 x 4 reserved: mode not known)";
  const auto& m = *d.edid->preferred;
  return fmt::format("DisplayPort tunnel {} host to dock ({}x{}, {:g} MHz x 3 x {} bits{})",
                     gbit_text(s.rate), m.width, m.height, m.pixel_clock_khz / 1000.0,
                     d.edid->bits_per_color.value_or(8), s.depth_assumed ? " assumed" : "");
}

std::string describe_dp_tunnels(const topology::Usb4LinkSummary& l) {
  const auto n = l.display_connectors.size();
  if (n == 0) return {};
  std::size_t reserved = 0;
  for (const auto& d : l.display_connectors) reserved += topology::dp_stream_of(d).reserved ? 1 : 0;
  const std::string how = reserved == 0 ? (n == 1 ? "its EDID mode" : "their EDID modes")
                          : reserved == n
                              ? (n == 1 ? "HBR2 x 4 reserved" : "HBR2 x 4 reserved each")
                              : fmt::format("EDID modes, HBR2 x 4 reserved for {} without one", reserved);
  return fmt::format("{} DisplayPort tunnel{} {} host to dock ({})", n, n == 1 ? "" : "s",
                     gbit_text(l.displays), how);
}

std::string describe_usb3_tunnel_edge(const topology::Usb4LinkSummary& l) {
  const std::string ceiling = usb3_tunnel_ceiling_text(l);
  return ceiling.empty() ? "USB3 tunnel" : "USB3 tunnel, " + ceiling;
}

std::string describe_host_router_join() {
  return "host router: its USB3 tunnels arrive here";
}

std::string describe_usb3_tunnel(const topology::Usb4LinkSummary& l) {
  std::string out = "USB3 tunnel of the " + display_string(l.label);
  if (l.usb3_tunnel) out += ", " + usb3_tunnel_ceiling_text(l);
  if (!l.displays_known()) out += " (DisplayPort tunnels not visible: none assumed for writes)";
  if (const auto dp = describe_dp_tunnels(l); !dp.empty()) out += ", after " + dp;
  return out;
}

std::string describe_router(const topology::Topology& t, topology::Vertex v) {
  const auto& r = t[v].as<topology::RouterInfo>();
  std::string out = "router " + r.name;
  if (r.address.is_host()) out += " host";
  if (r.generation) out += *r.generation >= 4 ? ", USB4" : fmt::format(", Thunderbolt {}", *r.generation);
  if (r.vendor_id && r.device_id) out += fmt::format(" [{:04x}:{:04x}]", *r.vendor_id, *r.device_id);
  if (const auto what = display_string(topology::node_product(t, v)); !what.empty()) out += " " + what;
  if (r.security) out += ", security " + display_string(*r.security);
  if (!r.address.is_host())
    if (const auto l = topology::usb4_link_to(t, v)) out += ", link " + describe_usb4_link(*l);
  if (!r.address.is_host())
    for (const auto& p : topology::pcie_tunnels(t))
      if (p.router == v) out += ", " + describe_pcie_tunnel(t, p);
  std::vector<std::string> ports;
  for (const auto& p : r.usb4_ports) {
    std::string s = fmt::format("{} {}", p.number, p.link ? topology::to_string(*p.link) : "?");
    std::vector<std::string> usb;
    for (const auto& u : p.usb_ports) usb.emplace_back(u.substr(u.rfind('/') + 1));
    if (!usb.empty()) s += " (Type-C with " + topology::join(usb, ", ") + ")";
    ports.push_back(std::move(s));
  }
  if (!ports.empty()) out += ", USB4 ports " + topology::join(ports, ", ");
  return out;
}

std::string usb_rate_text(topology::UsbSpeed s) {
  const double mbps = topology::nominal_mbps(s);
  if (mbps >= 1000) return fmt::format("{:g} Gb/s", mbps / 1000);
  return fmt::format("{:g} Mb/s", mbps);
}

std::string sysfs_speed_text(std::optional<topology::UsbSpeed> s) {
  return s ? std::string(topology::to_sysfs_string(*s)) : std::string("unknown");
}

std::string sysfs_pcie_speed(double gts) {
  return fmt::format("{:.1f} GT/s PCIe", gts);
}

std::string describe_location(const topology::PhysicalLocation& l) {
  auto known = [](const std::optional<std::string>& s) { return s && !s->empty() && *s != "unknown"; };
  std::vector<std::string> parts;
  if (known(l.panel)) parts.push_back(display_string(*l.panel) + " panel");
  std::string pos;
  if (known(l.vertical_position)) pos = display_string(*l.vertical_position);
  if (known(l.horizontal_position)) pos += (pos.empty() ? "" : " ") + display_string(*l.horizontal_position);
  if (!pos.empty()) parts.push_back(pos);
  if (l.dock.value_or(false)) parts.emplace_back("dock");
  if (l.lid.value_or(false)) parts.emplace_back("lid");
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string describe_connector(const topology::Topology& t, const topology::Connector& c) {
  using topology::PortInfo;
  std::vector<std::string> extra;
  if (c.usb3_port && c.usb2_port)
    extra.push_back("USB3 side " + escape_unprintable(t[*c.usb3_port].as<PortInfo>().name));
  for (const auto& side : {c.usb3_port, c.usb2_port}) {
    if (!side) continue;
    if (const auto& loc = t[*side].as<PortInfo>().physical_location) {
      if (auto s = describe_location(*loc); !s.empty()) {
        extra.push_back(s);
        break;
      }
    }
  }
  const std::string id = escape_unprintable(c.id);
  return extra.empty() ? id : fmt::format("{} ({})", id, fmt::join(extra, ", "));
}

namespace {
/// The port `p.peer` names, when it is another port of the scan.
std::optional<topology::Vertex> peer_port(const topology::Topology& t, const topology::PortInfo& p) {
  if (!p.peer || *p.peer == p.syspath) return std::nullopt;
  const auto v = t.find(*p.peer);
  if (!v || t[*v].kind != topology::NodeKind::Port) return std::nullopt;
  return v;
}
}  // namespace

std::string describe_peer(const topology::Topology& t, const topology::PortInfo& p) {
  if (!p.peer) return "(none)";
  if (*p.peer == p.syspath) return "(itself)";
  if (const auto v = peer_port(t, p)) return escape_unprintable(t[*v].as<topology::PortInfo>().name);
  return "(not found: " + escape_unprintable(*p.peer) + ")";
}

bool peer_resolves(const topology::Topology& t, const topology::PortInfo& p) {
  return peer_port(t, p).has_value();
}

std::string drive_at(std::string_view dev, std::string_view where) {
  const std::string d = escape_unprintable(dev);
  return where.empty() ? d : d + " (" + escape_unprintable(where) + ")";
}

namespace {
/// "2026-12-06": the day of an RFC 3339 time stamp.
std::string day_of(const std::optional<std::string>& date) {
  return date ? escape_unprintable(date->substr(0, 10)) : "";
}
std::string with_note(std::string s, const Basis& b) {
  return b.note.empty() ? s : s + "; " + escape_unprintable(b.note);
}
/// "published: VL805 on Raspberry Pi 4, UAS ~297 MB/s (Jeff Geerling, ..., 2020; SATA SSD in a UAS
/// enclosure, hdparm)".
std::string published_text(const Basis& b) {
  std::string s = "published: " + escape_unprintable(b.what);
  if (b.where || b.figure_mbs) s += ",";
  if (b.where) s += " " + escape_unprintable(*b.where);
  if (b.figure_mbs) s += " ~" + bandwidth_text(Bandwidth::from_mbs(*b.figure_mbs));
  return b.source.empty() ? s : s + " (" + escape_unprintable(b.source) + ")";
}
/// "model 400 MB/s", "model: not limited", "model: unknown": the table's figure a capacity replaced.
std::string model_text(const Basis& b) {
  return b.model_unlimited ? "model: not limited"
         : b.model_mbs     ? "model " + bandwidth_text(Bandwidth::from_mbs(*b.model_mbs))
                           : "model: unknown";
}
}  // namespace

std::string describe_basis(const Basis& b) {
  switch (b.kind) {
    case BasisKind::Given:
      return with_note("given (--demand)", b);
    case BasisKind::Measured: {
      std::string detail = escape_unprintable(b.what);
      if (b.where) detail += (detail.empty() ? "" : "; ") + escape_unprintable(*b.where);
      return with_note(
          fmt::format("measured {}{}", day_of(b.date), detail.empty() ? "" : " (" + detail + ")"), b);
    }
    case BasisKind::Estimated:
      return with_note("estimated: " + escape_unprintable(b.what), b);
    case BasisKind::Published:
      return with_note(published_text(b), b);
    case BasisKind::LinkCeiling:
      break;
  }
  return with_note(b.what.empty() ? "its link's ceiling" : "its " + escape_unprintable(b.what) + "'s ceiling",
                   b);
}

std::string basis_short(const Basis& b) {
  switch (b.kind) {
    case BasisKind::Given:
      return "given";
    case BasisKind::Measured:
      return "measured " + day_of(b.date);
    case BasisKind::Estimated:
      return "estimate";
    case BasisKind::Published:
      return "published";
    case BasisKind::LinkCeiling:
      break;
  }
  return "link ceiling";
}

std::string describe_capacity_basis(const Basis& b, Bandwidth capacity) {
  if (b.kind == BasisKind::Published) return fmt::format("{}; {}", published_text(b), model_text(b));
  return fmt::format("measured {}: {}{} ({})", day_of(b.date), b.at_least ? "at least " : "",
                     bandwidth_text(capacity), model_text(b));
}

}  // namespace usbsat::topology
