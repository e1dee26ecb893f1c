#pragma once
/// JSON building blocks shared by every JSON document (topo, drives, ports, doctor, plan, load, saturate):
/// every renderer serializes through dump_json(), the one safe dump. Key order is fixed (ordered
/// JSON), unknown values are null, ids are lower-case hex strings ("8086"), speeds are numbers in Mb/s and
/// GT/s.
#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::report {

using Json = nlohmann::ordered_json;

/// The one JSON serialization of every renderer: two-space indentation and a trailing newline. Invalid UTF-8
/// in device strings becomes U+FFFD instead of throwing (nlohmann's error_handler_t::replace); control
/// characters are escaped (\n, \u0001). Never call Json::dump() directly in a renderer.
std::string dump_json(const Json& j);
/// The same dump on one line (JSON Lines: `watch --json`, `top --json`), with a trailing newline.
std::string dump_json_line(const Json& j);

/// One member of json_object(): a key and the value moved in.
struct JsonField {
  const char* key;
  Json value;
};

/// The object {"key": value, ...} with its members in this order, as `Json{{"key", value}, ...}` builds it
/// (same dump) but without that form's temporaries (nlohmann turns each member into a two-element array
/// first) and its search for an earlier equal key at every insertion (quadratic in the members): the values
/// are moved in. The keys must be distinct.
template <std::size_t N>
Json json_object(JsonField (&&fields)[N]) {
  Json j(Json::value_t::object);
  auto& members = j.get_ref<Json::object_t&>();
  members.reserve(N);
  for (auto& f : fields) members.emplace_back(f.key, std::move(f.value));
  return j;
}

/// null for nullopt, else the value.
template <class T>
Json opt(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
/// "8086" or null.
Json json_hex16(const std::optional<std::uint16_t>& v);
/// 480, 5000, 1.5 (integers when integral) or null.
Json json_mbps(const std::optional<topology::UsbSpeed>& s);
/// {"speed_gts","width","max_speed_gts","max_width"} or null when empty.
Json json_pcie_link(const topology::PcieLink& l);
/// {"panel","vertical_position","horizontal_position","dock","lid"} or null.
Json json_physical_location(const std::optional<topology::PhysicalLocation>& p);
/// {"pci","kind","vendor_id","device_id","name","vendor","driver","pcie_link","companions","root_hubs"}.
Json json_controller(const topology::ControllerSummary& c);
/// {"router","label","type","lane_gbps","lanes","capable_lane_gbps","capable_lanes","below_capability",
///  "usable_gbps","displays_gbps","usb3_tunnel_gbps","usb3_tunnel_mbs","usb_ports","assumptions"}, and
///  "displays" (connector, enabled, monitor, width, height, pixel_clock_khz, tunnel_gbps) when any were seen.
Json json_usb4_link(const topology::Topology& t, const topology::Usb4LinkSummary& l);
/// A Thunderbolt link's PCIe tunnel (topology/capacity/pcie_tunnels.hpp): where it arrives, the controllers
/// it carries, its capacity (MB/s) and how the router was joined.
Json json_pcie_tunnel(const topology::Topology& t, const topology::PcieTunnelSummary& p);
/// {"pci","speed_gts","width","max_speed_gts","max_width","name"}.
Json json_pcie_hop(const topology::PcieHopSummary& h);
/// {"id","label","hub","on_root_hub","port","usb2_port","usb3_port","speed","max_speed_mbps","connect_type",
///  "location","physical_location","occupant","devices","drives"}.
Json json_connector(const topology::ConnectorSummary& c);
/// [{"severity","where","message"}].
Json json_diagnostics(std::span<const topology::Diagnostic> d);

}  // namespace usbsat::report
