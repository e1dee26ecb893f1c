#pragma once
/// The PCIe tunnel of a Thunderbolt 3 (or USB4) device router: the PCI functions a dock carries (its PCIe
/// switch and, behind it, its own xHCI), joined to the router, and what the tunnel can move.
///
/// sysfs links no router to the PCI functions it tunnels. What is there: the domain hangs below the host
/// router's NHI, and on a discrete Thunderbolt controller (Alpine Ridge, Titan Ridge) the NHI sits behind one
/// downstream port of the controller's own PCIe switch; the switch's other downstream ports lead to the
/// host's xHCI (an endpoint) and to the PCIe tunnels, where each device router's PCIe switch appears (an
/// upstream port: a bridge behind the downstream port). The kernel marks such functions `removable` (behind
/// an external-facing port, Linux >= 5.13). A device router on the host is paired with such a switch by
/// position: one each is unambiguous; several are paired in order of router port and downstream port, and
/// `assumptions` says so. Integrated controllers (NHI on the root bus, tunnels on root ports joined by
/// `usb4-host-interface` device links) are not read. Sources and figures: topology/README.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

struct PcieTunnelSummary {
  Vertex router{};         ///< the device router at the far end (the dock)
  std::string name;        ///< "0-1"
  std::string link_label;  ///< "Thunderbolt 3 link 0-1 (CalDigit, Inc. TS3 Plus)"
  std::string label;       ///< "PCIe tunnel of the Thunderbolt 3 link 0-1 (CalDigit, Inc. TS3 Plus)"
  Vertex entry{};          ///< the dock's PCIe switch upstream port, the first function the tunnel carries
  Vertex downstream{};     ///< the host controller's PCIe downstream port the tunnel leaves from
  std::vector<Vertex> controllers;  ///< the USB controllers it carries (the dock's own xHCI), graph order
  std::optional<unsigned> lane_gbps, lanes;   ///< the Thunderbolt link as trained
  std::optional<Bandwidth> link_share;        ///< the link's usable bandwidth x the PCIe payload efficiency
  std::optional<Bandwidth> controllers_pcie;  ///< what the carried controllers' own PCIe links can move
  std::optional<Bandwidth> capacity;          ///< the narrower of the two
  bool marked_removable = false;  ///< the kernel's `removable` mark agrees (else joined by position only)
  std::vector<std::string> assumptions;  ///< how the router was joined when sysfs did not say
};

/// A discrete Thunderbolt controller's PCIe switch, from its NHI's syspath: the NHI's downstream port and
/// the switch's upstream port above it. nullopt for an NHI on a root bus or a root port (integrated
/// controllers). The scanner reads the `removable` marks behind it; pcie_tunnels() pairs routers with them.
struct ThunderboltSwitch {
  std::string nhi_port, upstream;
};
std::optional<ThunderboltSwitch> thunderbolt_switch(std::string_view nhi);

/// Every PCIe tunnel that could be joined to a device router one hop from a discrete host controller, in
/// router order; empty without a thunderbolt bus.
std::vector<PcieTunnelSummary> pcie_tunnels(const Topology& t);
/// The tunnel's capacity under model `m` (PcieTunnelSummary::capacity is this under the nominal model): the
/// narrower of the link's PCIe share and the sum of the carried controllers' own PCIe links.
std::optional<Bandwidth> pcie_tunnel_capacity(const Topology& t, const PcieTunnelSummary& s,
                                              const CapacityModel& m = nominal_model());
/// The PCIe tunnel carrying controller `c`, if any.
std::optional<PcieTunnelSummary> pcie_tunnel_of(const Topology& t, Vertex c);

}  // namespace usbsat::topology
