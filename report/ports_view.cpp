#include "report/ports_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "report/table.hpp"
#include "topology/base/text.hpp"
#include "topology/model/connectors.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

std::string occupant_text(const topology::Topology& t, const topology::ConnectorSummary& c) {
  if (!c.occupant) return "empty";
  const auto& n = t[*c.occupant];
  const auto& d = n.as<topology::UsbDeviceInfo>();
  return fmt::format("{}{} {} {}", n.kind == topology::NodeKind::Hub ? "hub " : "", d.name,
                     topology::describe_usb_device(d), topology::describe_speed(d.speed, d.capable_speed));
}

}  // namespace

std::string render_ports_json(const ViewInput& in) {
  Json ctrls = Json::array();
  for (const auto& cp : topology::summarize_ports(in.topology)) {
    Json pcie = Json::array(), conns = Json::array(), hubs = Json::array();
    for (const auto& h : cp.pcie_uplink) pcie.push_back(json_pcie_hop(h));
    for (const auto& c : cp.connectors) conns.push_back(json_connector(c));
    for (const auto& h : cp.hubs)
      hubs.push_back(
          Json{{"hub", h.hub}, {"peer", opt(h.peer)}, {"description", h.description}, {"drives", h.drives}});
    ctrls.push_back(Json{{"controller", json_controller(cp.controller)},
                         {"pcie_uplink", std::move(pcie)},
                         {"connector_count", cp.connectors.size()},
                         {"occupied", cp.occupied()},
                         {"connectors", std::move(conns)},
                         {"drives", cp.drives},
                         {"hubs", std::move(hubs)}});
  }
  Json shared = Json::array();
  for (const auto& s : topology::shared_pcie_uplinks(in.topology))
    shared.push_back(Json{{"pci", s.pci}, {"controllers", s.controllers}});
  return dump_json(Json{{"controllers", std::move(ctrls)},
                        {"shared_pcie_uplinks", std::move(shared)},
                        {"diagnostics", json_diagnostics(in.diagnostics)}});
}

std::string render_ports_text(const ViewInput& in) {
  const auto& t = in.topology;
  const auto groups = topology::summarize_ports(t);
  if (groups.empty()) return "No USB host controllers found.\n";
  std::string out;
  for (const auto& cp : groups) {
    if (!out.empty()) out += "\n";
    const std::string heading = topology::describe_controller(cp.controller);
    out += (in.style.width ? elide_middle(heading, in.style.width) : heading) + "\n";
    std::string hubs;
    for (const auto& rh : cp.controller.root_hubs)
      if (auto v = t.find_by_name(rh)) {
        const auto& d = t[*v].as<topology::UsbDeviceInfo>();
        hubs += fmt::format("{}{} {}", hubs.empty() ? "" : ", ", rh,
                            d.speed ? topology::short_label(*d.speed) : std::string_view("?"));
      }
    if (!hubs.empty()) out += "  root hubs: " + hubs + "\n";
    if (!cp.controller.link.empty()) out += "  link: " + topology::pcie_link_text(cp.controller.link) + "\n";
    for (const auto& h : cp.pcie_uplink)
      out += fmt::format("  uplink: {} {}{}\n", h.pci, topology::pcie_link_text(h.link),
                         h.name.empty() ? "" : " (" + topology::display_string(h.name) + ")");
    if (!cp.controller.companions.empty())
      out += "  companions: " + topology::join(cp.controller.companions, " ") + "\n";
    out += fmt::format("  {} connectors, {} occupied, {} empty\n", cp.connectors.size(), cp.occupied(),
                       cp.connectors.size() - cp.occupied());
    if (!cp.connectors.empty()) {
      std::vector<std::vector<std::string>> rows;
      for (const auto& c : cp.connectors) {
        std::string where = c.physical_location ? topology::describe_location(*c.physical_location) : "";
        rows.push_back({c.id, c.label, std::string(topology::to_string(c.speed_class)),
                        c.connect_type.value_or("-"), where.empty() ? "-" : where, occupant_text(t, c),
                        c.drives.empty() ? "-" : topology::join(c.drives, " ")});
      }
      // Indented by 2: on a terminal the occupant and location cells give way to fit the rest.
      auto table = render_table({"CONNECTOR", "HUB PORT", "SPEED", "TYPE", "LOCATION", "OCCUPANT", "DRIVES"},
                                rows, {in.style.width > 2 ? in.style.width - 2 : 0, {5, 4}});
      for (std::size_t pos = 0; pos < table.size();) {
        const auto nl = table.find('\n', pos);
        out += "  " + table.substr(pos, nl - pos + 1);
        pos = nl + 1;
      }
    }
    if (cp.drives.size() >= 2)
      out += fmt::format("  drives sharing this controller: {}\n", topology::join(cp.drives, " "));
    else if (cp.drives.size() == 1)
      out += fmt::format("  drives on this controller: {}\n", cp.drives[0]);
    for (const auto& h : cp.hubs) {
      const std::string name = h.hub + (h.peer ? "+" + *h.peer : "");
      if (h.drives.size() >= 2)
        out += fmt::format("  drives sharing hub {} ({}): {}\n", name,
                           topology::display_string(h.description), topology::join(h.drives, " "));
      else if (h.drives.size() == 1)
        out += fmt::format("  drives behind hub {} ({}): {}\n", name, topology::display_string(h.description),
                           h.drives[0]);
    }
  }
  for (const auto& s : topology::shared_pcie_uplinks(t))
    out += fmt::format("\nControllers sharing PCIe link {}: {}\n", s.pci, topology::join(s.controllers, " "));
  for (const auto& l : topology::usb4_links(t)) {
    std::vector<std::string> names;
    for (topology::Vertex b : topology::usb4_tunnel_disks(t, l))
      names.push_back(t[b].as<topology::BlockInfo>().name);
    if (!names.empty())
      out += fmt::format("\nDrives in the {}: {}\n", topology::describe_usb3_tunnel(l),
                         topology::join(names, " "));
  }
  for (const auto& p : topology::pcie_tunnels(t)) {
    std::vector<std::string> names;
    for (topology::Vertex b : topology::block_devices(t))
      if (const auto c = topology::controller_of(t, b);
          c && std::find(p.controllers.begin(), p.controllers.end(), *c) != p.controllers.end())
        names.push_back(t[b].as<topology::BlockInfo>().name);
    if (!names.empty())
      out += fmt::format("\nDrives in the {}{}: {}\n", topology::display_string(p.label),
                         p.capacity ? ", up to " + topology::bandwidth_text(*p.capacity) : std::string(),
                         topology::join(names, " "));
  }
  return out;
}

}  // namespace usbsat::report
