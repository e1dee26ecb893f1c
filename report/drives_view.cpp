#include "report/drives_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/style.hpp"
#include "report/table.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {

Json json_drive(const topology::DriveSummary& d) {
  const bool usb = d.usb;
  auto usb_only = [&](Json v) { return usb ? std::move(v) : Json(nullptr); };
  Json pcie = Json::array();
  for (const auto& h : d.pcie_uplink) pcie.push_back(json_pcie_hop(h));
  return json_object({
      {"dev", d.dev},
      {"devnode", d.devnode},
      {"usb", usb},
      {"transport", d.transport},
      {"port_path", opt(d.port_path)},
      {"connector", d.connector ? json_connector(*d.connector) : Json(nullptr)},
      {"hub_chain", usb_only(d.hub_chain)},
      {"controller", d.controller ? json_controller(*d.controller) : Json(nullptr)},
      {"pcie_uplink", usb_only(std::move(pcie))},
      {"speed_mbps", json_mbps(d.speed)},
      {"capable_mbps", json_mbps(d.capable_speed)},
      {"capable_source",
       usb && d.capable_speed ? Json(d.capable_from_bos ? "bos" : "bcdUSB") : Json(nullptr)},
      {"protocol", d.protocol && *d.protocol != topology::StorageProtocol::None
                       ? Json(topology::to_string(*d.protocol))
                       : Json(nullptr)},
      {"uas_capable", opt(d.uas_capable)},
      {"uas_blocked_reason", opt(d.uas_blocked_reason)},
      {"driver", opt(d.driver)},
      {"queue_depth", opt(d.queue_depth)},
      {"max_sectors_kb", opt(d.max_sectors_kb)},
      {"max_hw_sectors_kb", opt(d.max_hw_sectors_kb)},
      {"nr_requests", opt(d.nr_requests)},
      {"vid_pid", opt(d.vid_pid)},
      {"usb_name", opt(d.usb_name)},
      {"vendor", opt(d.vendor)},
      {"model", opt(d.model)},
      {"serial", opt(d.serial)},
      {"hctl", opt(d.hctl)},
      {"size_bytes", opt(d.size_bytes)},
      {"rotational", opt(d.rotational)},
      {"removable", opt(d.removable)},
      {"mountpoints", d.mountpoints},
  });
}

std::string render_drives_json(const ViewInput& in) {
  Json drives = Json::array();
  // On a machine with a thunderbolt bus every drive names the USB4 link whose USB3 tunnel carries it (null:
  // none); without one the key is absent, as before USB4 was modelled.
  const bool usb4 = !topology::usb4_links(in.topology).empty();
  // Where a Thunderbolt PCIe tunnel was joined, every drive names the one carrying its controller (null:
  // none); elsewhere the key is absent.
  const auto tunnels = topology::pcie_tunnels(in.topology);
  for (const auto& d : topology::summarize_drives(in.topology)) {
    drives.push_back(json_drive(d));
    if (!usb4) continue;
    const auto link = topology::usb4_link_of(in.topology, d.block);
    drives.back()["usb4_tunnel"] = link ? json_usb4_link(in.topology, *link) : Json(nullptr);
    if (tunnels.empty()) continue;
    const auto ctrl = topology::controller_of(in.topology, d.block);
    Json tunnel = nullptr;
    for (const auto& p : tunnels)
      if (ctrl && std::find(p.controllers.begin(), p.controllers.end(), *ctrl) != p.controllers.end())
        tunnel = json_pcie_tunnel(in.topology, p);
    drives.back()["pcie_tunnel"] = std::move(tunnel);
  }
  return dump_json(
      json_object({{"drives", std::move(drives)}, {"diagnostics", json_diagnostics(in.diagnostics)}}));
}

namespace {

std::string dash(const std::optional<std::string>& s) {
  return s && !s->empty() ? topology::display_string(*s) : "-";
}

}  // namespace

std::vector<std::string> drive_notes(const topology::DriveSummary& d) {
  std::vector<std::string> notes;
  using topology::StorageProtocol;
  if (d.uas_capable.value_or(false) && d.protocol == StorageProtocol::Bot)
    notes.push_back(fmt::format(
        "{}: UAS-capable but running Bulk-Only ({}){}", d.dev,
        topology::display_string(d.driver.value_or("usb-storage")),  // USBSTOR on Windows
        d.uas_blocked_reason ? ": " + topology::display_string(*d.uas_blocked_reason) : std::string()));
  if (d.speed && d.capable_speed && *d.capable_speed > *d.speed) {
    std::string why;
    if (d.connector && d.connector->max_speed && *d.connector->max_speed <= *d.speed)
      why =
          fmt::format(": connector {} is {}", d.connector->id, topology::to_string(d.connector->speed_class));
    else if (d.connector && d.connector->max_speed)
      why = fmt::format(" although connector {} is {}: check the cable, or replug it", d.connector->id,
                        topology::to_string(d.connector->speed_class));
    notes.push_back(fmt::format("{}: negotiated {}, capable of {}{}", d.dev, topology::short_label(*d.speed),
                                topology::short_label(*d.capable_speed), why));
  }
  return notes;
}

std::string render_drives_text(const ViewInput& in) {
  const auto drives = topology::summarize_drives(in.topology);
  if (drives.empty()) return "No disks found.\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
  for (const auto& d : drives) {
    const std::string speed = d.usb ? topology::describe_speed(d.speed, d.capable_speed) : "-";
    // UAS green, BOT (one command at a time) yellow, on a colour terminal.
    const std::string proto =
        d.protocol && *d.protocol != topology::StorageProtocol::None
            ? paint(protocol_label(*d.protocol),
                    *d.protocol == topology::StorageProtocol::Uas ? Color::Good : Color::Warning, in.style)
            : "-";
    const std::string ctrl =
        d.controller ? topology::controller_cell(d.controller->kind, d.controller->pci) : "-";
    std::string name = topology::disk_model(d.vendor, d.model);
    if (name.empty()) name = d.usb_name.value_or("");
    rows.push_back({d.dev, d.size_bytes ? format_disk_size(*d.size_bytes) : "-", d.transport,
                    dash(d.port_path), speed, proto, d.queue_depth ? std::to_string(*d.queue_depth) : "-",
                    ctrl, d.connector ? d.connector->id : "-",
                    name.empty() ? "-" : topology::display_string(name)});
    auto n = drive_notes(d);
    notes.insert(notes.end(), n.begin(), n.end());
  }
  // Each drive in the USB3 tunnel of a USB4 link, the innermost one (its label names the path), once; only on
  // a machine with a thunderbolt bus.
  if (!topology::usb4_links(in.topology).empty())
    for (topology::Vertex b : topology::block_devices(in.topology))
      if (const auto l = topology::usb4_link_of(in.topology, b))
        notes.push_back(fmt::format("{}: in the {}", in.topology[b].as<topology::BlockInfo>().name,
                                    topology::describe_usb3_tunnel(*l)));
  // On a narrow terminal the model names give way (elided in the middle).
  std::string out =
      render_table({"DEV", "SIZE", "BUS", "PORT", "SPEED", "PROTO", "QD", "CONTROLLER", "CONNECTOR", "MODEL"},
                   rows, {in.style.width, {9}});
  if (!notes.empty()) {
    out += "\n";
    for (const auto& n : notes) out += n + "\n";
  }
  return out;
}

}  // namespace usbsat::report
