#include "report/json_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "topology/base/text.hpp"

namespace usbsat::report {

namespace {

/// Printable ASCII other than '"' and '\\': what nlohmann's dump copies unchanged.
bool plain(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

/// A quoted string as nlohmann's dump escapes it (control characters, invalid UTF-8 replaced); a plain one
/// (nearly every key and device string) is copied without nlohmann's per-byte UTF-8 decoding.
void put_string(std::string& out, const std::string& s) {
  if (!plain(s)) {
    out += Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

/// `j` as nlohmann's dump(2, ' ', false, replace) writes it at indentation `indent`: the same bytes, with
/// integers, strings and the layout written directly and floating-point numbers (and binary values, which
/// no usbsat document has) through nlohmann's own dump.
void put(std::string& out, const Json& j, std::size_t indent) {
  const auto open = [&](char c, bool empty) {
    out += c;
    if (empty) out += c == '{' ? '}' : ']';
    return !empty;
  };
  const auto close = [&](char c) {
    out += '\n';
    out.append(indent, ' ');
    out += c;
  };
  switch (j.type()) {
    case Json::value_t::object: {
      const auto& members = j.get_ref<const Json::object_t&>();
      if (!open('{', members.empty())) return;
      for (auto it = members.begin(); it != members.end(); ++it) {
        out += it == members.begin() ? "\n" : ",\n";
        out.append(indent + 2, ' ');
        put_string(out, it->first);
        out += ": ";
        put(out, it->second, indent + 2);
      }
      close('}');
      return;
    }
    case Json::value_t::array: {
      const auto& items = j.get_ref<const Json::array_t&>();
      if (!open('[', items.empty())) return;
      for (auto it = items.begin(); it != items.end(); ++it) {
        out += it == items.begin() ? "\n" : ",\n";
        out.append(indent + 2, ' ');
        put(out, *it, indent + 2);
      }
      close(']');
      return;
    }
    case Json::value_t::string:
      put_string(out, j.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      out += j.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::null:
      out += "null";
      return;
    case Json::value_t::number_integer: {
      const fmt::format_int n(j.get<std::int64_t>());
      out.append(n.data(), n.size());
      return;
    }
    case Json::value_t::number_unsigned: {
      const fmt::format_int n(j.get<std::uint64_t>());
      out.append(n.data(), n.size());
      return;
    }
    default:
      out += j.dump(2, ' ', false, Json::error_handler_t::replace);
  }
}

}  // namespace

std::string dump_json(const Json& j) {
  // Written here rather than by j.dump(): the same bytes (the unit test "dump_json writes what nlohmann's
  // dump writes" compares them) for a fraction of the instructions (drives --json, 234 drives: see
  // tests/bench/README.md).
  std::string out;
  put(out, j, 0);
  out += '\n';
  return out;
}

std::string dump_json_line(const Json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Json json_hex16(const std::optional<std::uint16_t>& v) {
  return v ? Json(topology::format_hex4(*v)) : Json(nullptr);
}

Json json_mbps(const std::optional<topology::UsbSpeed>& s) {
  if (!s || *s == topology::UsbSpeed::Unknown) return nullptr;
  const double m = topology::nominal_mbps(*s);
  if (std::floor(m) == m) return static_cast<std::uint64_t>(m);
  return m;
}

Json json_pcie_link(const topology::PcieLink& l) {
  if (l.empty()) return nullptr;
  return json_object({{"speed_gts", opt(l.speed_gts)},
                      {"width", opt(l.width)},
                      {"max_speed_gts", opt(l.max_speed_gts)},
                      {"max_width", opt(l.max_width)}});
}

Json json_usb4_link(const topology::Topology& t, const topology::Usb4LinkSummary& l) {
  const auto gbps = [](std::optional<topology::Bandwidth> b) {
    return b ? Json(static_cast<double>(b->bytes_per_s) * 8 / 1e9) : Json(nullptr);
  };
  std::vector<std::string> ports;
  for (const auto& p : l.usb_ports) ports.push_back(topology::node_id(t, p));
  Json path = Json::array();
  for (const auto& h : l.path)
    path.push_back(json_object({{"router", h.router}, {"usable_gbps", gbps(h.usable)}}));
  Json j = json_object(
      {{"router", l.name},
       {"label", l.label},
       {"type", l.type.empty() ? Json(nullptr) : Json(l.type)},
       {"lane_gbps", opt(l.lane_gbps)},
       {"lanes", opt(l.lanes)},
       {"capable_lane_gbps", l.capable ? Json(l.capable->lane_gbps) : Json(nullptr)},
       {"capable_lanes", l.capable ? Json(l.capable->lanes) : Json(nullptr)},
       {"below_capability", l.below_capability()},
       {"usable_gbps", gbps(l.usable)},
       {"displays_gbps", gbps(l.displays)},
       {"usb3_tunnel_gbps", gbps(l.usb3_tunnel)},
       {"usb3_tunnel_mbs", l.usb3_tunnel ? Json(l.usb3_tunnel->mbs()) : Json(nullptr)},
       {"usb3_tunnel_write_gbps", gbps(l.usb3_tunnel_write)},
       {"usb3_tunnel_write_mbs", l.usb3_tunnel_write ? Json(l.usb3_tunnel_write->mbs()) : Json(nullptr)},
       {"usb3_isochronous_gbps", gbps(l.usb3_isochronous)},
       {"usb_ports", ports},
       {"path", path},
       {"assumptions", l.assumptions}});
  // Only where displays were seen, so links without them keep their JSON.
  if (!l.display_connectors.empty()) {
    Json displays = Json::array();
    for (const auto& d : l.display_connectors) {
      const auto* mode = d.edid && d.edid->preferred ? &*d.edid->preferred : nullptr;
      const auto stream = topology::dp_stream_of(d);
      displays.push_back(
          json_object({{"connector", d.name},
                       {"enabled", opt(d.enabled)},
                       {"monitor", d.edid ? opt(d.edid->monitor_name) : Json(nullptr)},
                       {"width", mode ? Json(mode->width) : Json(nullptr)},
                       {"height", mode ? Json(mode->height) : Json(nullptr)},
                       {"pixel_clock_khz", mode ? Json(mode->pixel_clock_khz) : Json(nullptr)},
                       {"bits_per_color", d.edid ? opt(d.edid->bits_per_color) : Json(nullptr)},
                       {"tunnel_gbps", gbps(stream.rate)},
                       {"tunnel_basis", stream.reserved ? "reserved" : "edid_mode"}}));
    }
    j["displays"] = std::move(displays);
  }
  return j;
}

Json json_pcie_tunnel(const topology::Topology& t, const topology::PcieTunnelSummary& p) {
  const auto mbs = [](std::optional<topology::Bandwidth> b) { return b ? Json(b->mbs()) : Json(nullptr); };
  std::vector<std::string> controllers;
  for (const auto c : p.controllers) controllers.push_back(topology::node_id(t, c));
  return Json{{"router", p.name},
              {"label", p.label},
              {"downstream", topology::node_id(t, p.downstream)},
              {"entry", topology::node_id(t, p.entry)},
              {"controllers", controllers},
              {"link_share_mbs", mbs(p.link_share)},
              {"controllers_pcie_mbs", mbs(p.controllers_pcie)},
              {"capacity_mbs", mbs(p.capacity)},
              {"marked_removable", p.marked_removable},
              {"assumptions", p.assumptions}};
}

Json json_physical_location(const std::optional<topology::PhysicalLocation>& p) {
  if (!p) return nullptr;
  return json_object({{"panel", opt(p->panel)},
                      {"vertical_position", opt(p->vertical_position)},
                      {"horizontal_position", opt(p->horizontal_position)},
                      {"dock", opt(p->dock)},
                      {"lid", opt(p->lid)}});
}

Json json_controller(const topology::ControllerSummary& c) {
  auto nonempty = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
  return json_object({{"pci", c.pci},
                      {"kind", topology::to_string(c.kind)},
                      {"vendor_id", json_hex16(c.vendor_id)},
                      {"device_id", json_hex16(c.device_id)},
                      {"name", nonempty(c.name)},
                      {"vendor", nonempty(c.vendor)},
                      {"driver", nonempty(c.driver)},
                      {"pcie_link", json_pcie_link(c.link)},
                      {"companions", c.companions},
                      {"root_hubs", c.root_hubs}});
}

Json json_pcie_hop(const topology::PcieHopSummary& h) {
  return json_object({{"pci", h.pci},
                      {"speed_gts", opt(h.link.speed_gts)},
                      {"width", opt(h.link.width)},
                      {"max_speed_gts", opt(h.link.max_speed_gts)},
                      {"max_width", opt(h.link.max_width)},
                      {"name", h.name.empty() ? Json(nullptr) : Json(h.name)}});
}

Json json_connector(const topology::ConnectorSummary& c) {
  return json_object({{"id", c.id},
                      {"label", c.label},
                      {"hub", c.hub},
                      {"on_root_hub", c.on_root_hub},
                      {"port", c.number},
                      {"usb2_port", opt(c.usb2_port)},
                      {"usb3_port", opt(c.usb3_port)},
                      {"speed", topology::to_string(c.speed_class)},
                      {"max_speed_mbps", json_mbps(c.max_speed)},
                      {"connect_type", opt(c.connect_type)},
                      {"location", opt(c.location)},
                      {"physical_location", json_physical_location(c.physical_location)},
                      {"occupant", opt(c.occupant_name)},
                      {"devices", c.devices},
                      {"drives", c.drives}});
}

Json json_diagnostics(std::span<const topology::Diagnostic> d) {
  Json out = Json::array();
  for (const auto& x : d)
    out.push_back(json_object(
        {{"severity", topology::to_string(x.severity)}, {"where", x.where}, {"message", x.message}}));
  return out;
}

}  // namespace usbsat::report
