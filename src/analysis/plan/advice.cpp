// What to avoid: connectors that would make a planned drive slow, and links that cannot carry two drives.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <fmt/format.h>

#include "src/analysis/plan/internal.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::plan::detail {

using topology::ResourceKind;
using topology::UsbSpeed;

namespace {

std::string rate_label(std::optional<Bandwidth> c) {
  return c ? topology::bandwidth_text(*c) : "";
}

/// "one USB 1.1 full-speed bus (12 Mb/s)": a bus by its real signalling speed, its root hub's (an OHCI or
/// UHCI bus runs at 12 Mb/s, an EHCI bus at 480 Mb/s).
std::string bus_words(const topology::Topology& t, const topology::Resource& bus) {
  const auto* rh = bus.vertex ? t[*bus.vertex].get_if<topology::UsbDeviceInfo>() : nullptr;
  const UsbSpeed speed = rh && rh->speed ? *rh->speed : UsbSpeed::Unknown;
  const char* generation = speed == UsbSpeed::High   ? "USB 2.0 high-speed "
                           : speed == UsbSpeed::Full ? "USB 1.1 full-speed "
                           : speed == UsbSpeed::Low  ? "USB 1.1 low-speed "
                                                     : "";
  if (!*generation) return "one USB bus";
  return fmt::format("one {}bus ({:g} Mb/s)", generation, topology::nominal_mbps(speed));
}

/// What a shared link is, in words (every kind named: a new kind is a compile error here, not a hub's words).
std::string shared_link_words(const topology::Topology& t, const topology::Resource& r) {
  switch (r.kind) {
    case ResourceKind::PcieLink:
      return "one PCIe link for all ports of the controller";
    case ResourceKind::UsbBus:
      return bus_words(t, r) + " for all its ports";
    case ResourceKind::Usb4Tunnel:
    case ResourceKind::PcieTunnel:
      return "one tunnel for all ports behind the dock";
    case ResourceKind::HubUplink:
    case ResourceKind::DriveLink:
    case ResourceKind::Controller:
    case ResourceKind::Declared:
      break;
  }
  return "one uplink for all ports of the hub";
}

/// Why a shared link is worth avoiding, in words: what it is and what it carries.
std::string shared_link_reason(const topology::Topology& t, const topology::Resource& r, Bandwidth demand) {
  const std::string what = shared_link_words(t, r);
  const std::string consequence =
      *r.capacity < demand ? "less than one drive's " + rate_label(demand) : "two drives there share it";
  return r.label + ": " + what + ", " + rate_label(r.capacity) + " in total; " + consequence;
}

/// The notes worth giving, in path order (nearest the drives first). Links over the same connectors are one
/// piece of advice: the narrowest of them, the nearest on a tie (a card's own x1 link rather than the root
/// port above it; a dock's USB3 tunnel rather than the faster hub uplink below it). A link whose connectors
/// all sit below a wider-reaching link that is no faster (a rate-matching hub on an EHCI bus) adds nothing
/// either. A link counts from two connectors, or from one when it cannot carry even one drive's demand.
std::vector<AvoidNote> append_binding_links(std::vector<AvoidNote> out, const std::vector<std::string>& order,
                                            std::map<std::string, AvoidNote>& notes, Bandwidth demand) {
  std::map<std::vector<std::size_t>, std::string> narrowest;
  for (const auto& id : order) {
    const auto& n = notes[id];
    auto [it, fresh] = narrowest.try_emplace(n.connectors, id);
    if (!fresh && *n.capacity < *notes[it->second].capacity) it->second = id;
  }
  for (const auto& id : order) {
    const auto& n = notes[id];
    if (narrowest[n.connectors] != id) continue;
    if (n.connectors.size() < 2 && !(*n.capacity < demand)) continue;
    const bool covered = std::any_of(order.begin(), order.end(), [&](const std::string& other) {
      const auto& o = notes[other];
      return o.connectors.size() > n.connectors.size() && *o.capacity <= *n.capacity &&
             std::includes(o.connectors.begin(), o.connectors.end(), n.connectors.begin(),
                           n.connectors.end());
    });
    if (!covered) out.push_back(n);
  }
  return out;
}

}  // namespace

std::vector<AvoidNote> avoid_notes(const topology::Topology& t, const std::vector<PlanSlot>& slots,
                                   const Plan& plan, bool superspeed_drives,
                                   const topology::CapacityModel& m) {
  std::vector<AvoidNote> out;
  // What a drive gets there: the capacity table's Bulk-Only rows for full and high speed
  // (topology/README.md).
  const auto full = topology::usb_drive_capacity(topology::UsbRate::Full, topology::StorageProtocol::Bot, m);
  const auto high = topology::usb_drive_capacity(topology::UsbRate::High, topology::StorageProtocol::Bot, m);
  AvoidNote usb1{"usb1_only", "", full.value_or(Bandwidth::from_mbs(1.0)), {}, ""};
  AvoidNote usb2{"usb2_only", "", high.value_or(Bandwidth::from_mbs(40)), {}, ""};
  for (const auto& s : slots) {
    if (s.usb3_port) continue;
    if (s.usb2_speed && *s.usb2_speed <= UsbSpeed::Full)
      usb1.connectors.push_back(s.connector);
    else if (superspeed_drives)
      usb2.connectors.push_back(s.connector);
  }
  usb1.reason = "USB 1.1 only (a companion controller's port, 12 Mb/s): about " + rate_label(usb1.capacity) +
                " for any drive";
  usb2.reason =
      "no USB3 wiring: a SuperSpeed drive there runs at 480 Mb/s, at most about " + rate_label(usb2.capacity);
  // USB2-only connectors are only worth a warning when there are SuperSpeed ones to use instead.
  const bool any_usb3 =
      std::any_of(slots.begin(), slots.end(), [](const PlanSlot& s) { return s.usb3_port.has_value(); });
  if (!usb2.connectors.empty() && any_usb3) out.push_back(std::move(usb2));
  if (!usb1.connectors.empty()) out.push_back(std::move(usb1));

  // Shared links that cannot carry two drives at the plan's per-drive demand (hub uplinks, EHCI buses, PCIe
  // links, USB4 tunnels shared by two or more free connectors), or not even one (a dock's USB3 tunnel left
  // narrow by its displays: a drive alone there is slow).
  Bandwidth demand = Bandwidth::zero();
  for (const auto& p : plan.placements) demand = std::max(demand, p.prediction.demand);
  std::vector<std::string> order;
  std::map<std::string, AvoidNote> notes;
  for (const auto& s : slots) {
    std::set<std::string> seen;
    // A SuperSpeed drive at a USB3 connector uses its SuperSpeed side only (the USB 2.0 hub of a hub pair
    // does not carry it).
    const auto usb2_side = superspeed_drives && s.usb3_port ? std::nullopt : s.usb2_port;
    for (const auto& side : {s.usb3_port, usb2_side}) {
      if (!side) continue;
      for (const auto& r : topology::upstream_resources(t, *side, m)) {
        if (!r.capacity || r.kind == ResourceKind::Controller || !seen.insert(r.id).second) continue;
        if (!(*r.capacity < demand + demand)) continue;
        auto [it, fresh] = notes.try_emplace(r.id);
        if (fresh) {
          order.push_back(r.id);
          it->second = AvoidNote{"shared_link", r.node, r.capacity, {}, shared_link_reason(t, r, demand)};
        }
        it->second.connectors.push_back(s.connector);
      }
    }
  }
  return append_binding_links(std::move(out), order, notes, demand);
}

}  // namespace usbsat::analysis::plan::detail
