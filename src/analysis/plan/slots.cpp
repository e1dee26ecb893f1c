// Usable connectors: the physical connectors a drive may be planned onto, with the side it would use.
#include <algorithm>

#include "src/analysis/plan/planner.hpp"

namespace usbsat::analysis::plan {

using topology::PortInfo;
using topology::Topology;
using topology::Vertex;

namespace {

bool side_usable(const Topology& t, std::optional<Vertex> port) {
  if (!port) return false;
  const auto& p = t[*port].as<PortInfo>();
  return p.connect_type != "not used";
}

}  // namespace

std::vector<PlanSlot> usable_slots(const Topology& t, const std::vector<Vertex>& movable) {
  std::vector<PlanSlot> out;
  const auto& cs = t.connectors();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const topology::Connector& c = cs[i];
    PlanSlot s;
    s.connector = i;
    bool hardwired = false;
    for (const auto& side : {c.usb3_port, c.usb2_port}) {
      if (!side_usable(t, side)) continue;
      const auto& p = t[*side].as<PortInfo>();
      if (p.connect_type == "hardwired") hardwired = true;
      if (p.usb3_side()) {
        s.usb3_port = side;
        s.usb3_speed = p.hub_speed;
      } else {
        s.usb2_port = side;
        s.usb2_speed = p.hub_speed;
      }
      if (!s.panel && p.physical_location && p.physical_location->panel) s.panel = p.physical_location->panel;
    }
    if (hardwired || (!s.usb3_port && !s.usb2_port)) continue;
    if (const auto occ = topology::occupant(t, c))
      if (std::find(movable.begin(), movable.end(), *occ) == movable.end()) continue;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace usbsat::analysis::plan
