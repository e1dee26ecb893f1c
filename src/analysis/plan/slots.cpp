// Usable connectors: the physical connectors a drive may be planned onto, with the side it would use.
#include <algorithm>

#include "src/analysis/plan/planner.hpp"

namespace usbsat::analysis::plan {

using topology::PortInfo;
using topology::Topology;
using topology::Vertex;

namespace {

bool movable_or_none(const Topology& t, Vertex port, const std::vector<Vertex>& movable) {
  for (const Vertex v : topology::children(t, port))
    if (std::find(movable.begin(), movable.end(), v) == movable.end()) return false;
  return true;
}

/// A side reachable from outside: not `hardwired` to something soldered on (such as a Raspberry Pi 4's
/// internal USB 2.0 hub).
bool external(const Topology& t, std::optional<Vertex> port) {
  return port && t[*port].as<PortInfo>().connect_type != "hardwired";
}

/// A side of a connector a drive may be plugged into: external, wired (not `not used`) and holding nothing
/// but the drives being re-placed.
bool side_usable(const Topology& t, std::optional<Vertex> port, const std::vector<Vertex>& movable) {
  return external(t, port) && t[*port].as<PortInfo>().connect_type != "not used" &&
         movable_or_none(t, *port, movable);
}

/// Something other than the drives being re-placed is in the connector: the device on its first external side
/// that has one, the SuperSpeed side first (a device on the other side at the same time is inside the
/// machine).
bool occupied(const Topology& t, const topology::Connector& c, const std::vector<Vertex>& movable) {
  for (const auto& side : {c.usb3_port, c.usb2_port}) {
    if (!external(t, side) || topology::children(t, *side).empty()) continue;
    return !movable_or_none(t, *side, movable);
  }
  return false;
}

}  // namespace

std::vector<PlanSlot> usable_slots(const Topology& t, const std::vector<Vertex>& movable) {
  std::vector<PlanSlot> out;
  const auto& cs = t.connectors();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const topology::Connector& c = cs[i];
    PlanSlot s;
    s.connector = i;
    for (const auto& side : {c.usb3_port, c.usb2_port}) {
      if (!side_usable(t, side, movable)) continue;
      const auto& p = t[*side].as<PortInfo>();
      if (p.usb3_side()) {
        s.usb3_port = side;
        s.usb3_speed = p.hub_speed;
      } else {
        s.usb2_port = side;
        s.usb2_speed = p.hub_speed;
      }
      if (!s.panel && p.physical_location && p.physical_location->panel) s.panel = p.physical_location->panel;
    }
    if ((!s.usb3_port && !s.usb2_port) || occupied(t, c, movable)) continue;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace usbsat::analysis::plan
