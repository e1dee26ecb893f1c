#include "report/json_topology.hpp"

#include <fmt/format.h>

#include "topology/model/connectors.hpp"

namespace usbsat::report {
namespace {

using topology::NodeKind;

Json str_or_null(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json basename_or_null(const std::optional<std::string>& p) {
  if (!p) return nullptr;
  const auto s = p->rfind('/');
  return s == std::string::npos ? *p : p->substr(s + 1);
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b);
}

Json hex8(const std::optional<std::uint8_t>& v) {
  return v ? Json(fmt::format("{:02x}", *v)) : Json(nullptr);
}

/// The keys of a PCI hop.
void fill(Json& j, const topology::Topology&, topology::Vertex, const topology::PciHopInfo& info) {
  j["id"] = info.bdf;
  j["vendor_id"] = json_hex16(info.vendor_id);
  j["device_id"] = json_hex16(info.device_id);
  j["class"] = info.class_code ? Json(fmt::format("{:06x}", *info.class_code)) : Json(nullptr);
  j["driver"] = str_or_null(info.driver);
  j["vendor"] = str_or_null(info.vendor_name);
  j["name"] = str_or_null(info.model_name);
  j["pcie_link"] = json_pcie_link(info.link);
}

/// The keys of a host controller.
void fill(Json& j, const topology::Topology& t, topology::Vertex v, const topology::ControllerInfo& info) {
  j["id"] = info.bdf;
  j["controller"] = json_controller(topology::summarize_controller(t, v));
  j["class"] = info.class_code ? Json(fmt::format("{:06x}", *info.class_code)) : Json(nullptr);
  j["is_pci"] = info.is_pci;
}

/// The keys of a root hub, hub or USB device.
void fill(Json& j, const topology::Topology&, topology::Vertex, const topology::UsbDeviceInfo& info) {
  j["id"] = info.name;
  j["busnum"] = info.busnum;
  j["devnum"] = info.devnum;
  j["port_numbers"] = info.ports;
  j["vendor_id"] = json_hex16(info.vendor_id);
  j["product_id"] = json_hex16(info.product_id);
  j["bcd_device"] = json_hex16(info.bcd_device);
  j["manufacturer"] = opt(info.manufacturer);
  j["product"] = opt(info.product);
  j["serial"] = opt(info.serial);
  j["version"] = str_or_null(trimmed(info.version));
  j["speed_mbps"] = json_mbps(info.speed);
  j["capable_mbps"] = json_mbps(info.capable_speed);
  j["capable_source"] = info.capable_speed ? Json(info.capable_from_bos ? "bos" : "bcdUSB") : Json(nullptr);
  j["rx_lanes"] = opt(info.rx_lanes);
  j["tx_lanes"] = opt(info.tx_lanes);
  j["max_power_ma"] = opt(info.max_power_ma);
  j["device_class"] = hex8(info.device_class);
  j["maxchild"] = opt(info.maxchild);
  j["removable"] = opt(info.removable);
  j["power_control"] = opt(info.power_control);
  j["hub_peer"] = basename_or_null(info.hub_peer);
  j["driver"] = str_or_null(info.driver);
  j["vendor_name"] = str_or_null(info.vendor_name);
  j["model_name"] = str_or_null(info.model_name);
}

/// The keys of a hub port.
void fill(Json& j, const topology::Topology& t, topology::Vertex v, const topology::PortInfo& info) {
  j["id"] = info.name;
  j["number"] = info.number;
  j["hub"] = str_or_null(info.hub_name);
  j["hub_speed_mbps"] = json_mbps(info.hub_speed);
  const auto ci = topology::connector_of(t, v);
  j["connector"] = ci ? Json(t.connectors()[*ci].id) : Json(nullptr);
  j["connect_type"] = opt(info.connect_type);
  j["location"] = opt(info.location);
  j["peer"] = basename_or_null(info.peer);
  j["state"] = opt(info.state);
  j["over_current_count"] = opt(info.over_current_count);
  j["quirks"] = opt(info.quirks);
  j["usb3_lpm_permit"] = opt(info.usb3_lpm_permit);
  j["physical_location"] = json_physical_location(info.physical_location);
}

/// The keys of a USB interface.
void fill(Json& j, const topology::Topology&, topology::Vertex, const topology::InterfaceInfo& info) {
  j["id"] = info.name;
  j["number"] = info.number;
  j["class"] = hex8(info.interface_class);
  j["subclass"] = hex8(info.interface_subclass);
  j["protocol"] = hex8(info.interface_protocol);
  j["alt_setting"] = opt(info.alt_setting);
  j["num_endpoints"] = opt(info.num_endpoints);
  Json alts = Json::array();
  for (const auto& a : info.alt_settings)
    alts.push_back(Json{{"alt", a.number},
                        {"class", fmt::format("{:02x}", a.interface_class)},
                        {"subclass", fmt::format("{:02x}", a.interface_subclass)},
                        {"protocol", fmt::format("{:02x}", a.interface_protocol)},
                        {"num_endpoints", a.num_endpoints}});
  j["alt_settings"] = std::move(alts);
  j["interface_string"] = opt(info.interface_string);
  j["driver"] = str_or_null(info.driver);
  j["storage_protocol"] = info.storage == topology::StorageProtocol::None
                              ? Json(nullptr)
                              : Json(topology::to_string(info.storage));
  j["uas_capable"] = info.uas_capable;
  j["uas_blocked_reason"] = opt(info.uas_blocked_reason);
}

/// The keys of a SCSI device.
void fill(Json& j, const topology::Topology&, topology::Vertex, const topology::ScsiDeviceInfo& info) {
  j["id"] = info.hctl;
  j["host"] = info.host;
  j["vendor"] = opt(info.vendor);
  j["model"] = opt(info.model);
  j["rev"] = opt(info.rev);
  j["type"] = opt(info.type);
  j["queue_depth"] = opt(info.queue_depth);
  j["host_proc_name"] = opt(info.host_proc_name);
}

/// The keys of a whole disk.
void fill(Json& j, const topology::Topology&, topology::Vertex, const topology::BlockInfo& info) {
  j["id"] = info.name;
  j["devnode"] = info.devnode;
  j["devnum"] = opt(info.devnum);
  j["usb"] = info.usb;
  j["transport"] = str_or_null(info.transport);
  j["size_bytes"] = opt(info.size_bytes);
  j["vendor"] = opt(info.vendor);
  j["model"] = opt(info.model);
  j["serial"] = opt(info.serial);
  j["logical_block_size"] = opt(info.logical_block_size);
  j["physical_block_size"] = opt(info.physical_block_size);
  j["max_sectors_kb"] = opt(info.max_sectors_kb);
  j["max_hw_sectors_kb"] = opt(info.max_hw_sectors_kb);
  j["nr_requests"] = opt(info.nr_requests);
  j["rotational"] = opt(info.rotational);
  j["removable"] = opt(info.removable);
  j["read_only"] = opt(info.read_only);
  j["mountpoints"] = info.mountpoints;
  j["holders"] = info.holders;
  Json parts = Json::array();
  for (const auto& p : info.partitions)
    parts.push_back(Json{{"name", p.name},
                         {"size_bytes", opt(p.size_bytes)},
                         {"mountpoints", p.mountpoints},
                         {"holders", p.holders}});
  j["partitions"] = std::move(parts);
}

/// The keys of a USB4/Thunderbolt router; a device router also its link to the router above it.
void fill(Json& j, const topology::Topology& t, topology::Vertex v, const topology::RouterInfo& info) {
  j["id"] = info.name;
  j["generation"] = opt(info.generation);
  j["vendor_id"] = json_hex16(info.vendor_id);
  j["device_id"] = json_hex16(info.device_id);
  j["vendor_name"] = opt(info.vendor_name);
  j["device_name"] = opt(info.device_name);
  j["security"] = opt(info.security);
  Json ports = Json::array();
  for (const auto& p : info.usb4_ports) {
    std::vector<std::string> usb;
    for (const auto& u : p.usb_ports) usb.push_back(basename_or_null(u).get<std::string>());
    ports.push_back(Json{{"number", p.number},
                         {"link", p.link ? Json(topology::to_string(*p.link)) : Json(nullptr)},
                         {"connector", basename_or_null(p.connector)},
                         {"usb_ports", usb}});
  }
  j["usb4_ports"] = std::move(ports);
  j["usb4_link"] = nullptr;
  for (const auto& l : topology::usb4_links(t))
    if (l.router == v) j["usb4_link"] = json_usb4_link(t, l);
  // Only on a router whose PCIe tunnel was joined, so other routers keep their JSON.
  for (const auto& p : topology::pcie_tunnels(t))
    if (p.router == v) j["pcie_tunnel"] = json_pcie_tunnel(t, p);
}

}  // namespace

Json json_node(const topology::Topology& t, topology::Vertex v) {
  Json j;
  j["kind"] = topology::to_string(t[v].kind);
  j["id"] = nullptr;  // keeps "id" second; every kind fills it
  j["syspath"] = t[v].syspath();
  std::visit([&](const auto& info) { fill(j, t, v, info); }, t[v].data);
  if (auto up = topology::uplink(t, v); up && t[*up].kind == topology::LinkKind::Usb) {
    j["link_speed_mbps"] = json_mbps(t[*up].usb_speed);
    j["link_lanes"] = t[*up].lanes;
  }
  Json kids = Json::array();
  for (auto k : topology::children(t, v)) kids.push_back(json_node(t, k));
  j["children"] = std::move(kids);
  return j;
}

std::string render_topology_json(const ViewInput& in) {
  Json roots = Json::array();
  for (auto r : in.topology.roots()) roots.push_back(json_node(in.topology, r));
  Json conns = Json::array();
  for (std::size_t i = 0; i < in.topology.connectors().size(); ++i)
    conns.push_back(json_connector(topology::summarize_connector(in.topology, i)));
  return dump_json(Json{{"roots", std::move(roots)},
                        {"connectors", std::move(conns)},
                        {"diagnostics", json_diagnostics(in.diagnostics)}});
}

}  // namespace usbsat::report
