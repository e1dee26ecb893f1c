#pragma once
/// The shared resources on a block device's path to the root of the topology (drive link, hub uplinks,
/// EHCI bus, controller, PCIe links, USB4 and PCIe tunnels), each with its capacity from the tables, a
/// calibration or a published figure.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/capacity/basis.hpp"
#include "topology/capacity/tables.hpp"
#include "topology/model/node_ids.hpp"

namespace usbsat::topology {

/// What kind of shared thing a resource is.
enum class ResourceKind : std::uint8_t {
  DriveLink,   ///< the drive's own USB link (port -> device), by negotiated speed and protocol
  HubUplink,   ///< a hub's upstream link (the half of a USB3 hub pair that carries the drive)
  UsbBus,      ///< the single bus of an EHCI/OHCI/UHCI root hub, shared by all its ports
  Controller,  ///< the host controller itself (unlimited unless calibrated)
  PcieLink,    ///< a PCIe link above the controller (controller's own link, bridges, switch ports)
  Usb4Tunnel,  ///< the USB3 tunnel of a USB4 link that carries the root port's traffic
               ///< (topology/usb4_tunnels)
  PcieTunnel,  ///< the PCIe tunnel of a Thunderbolt link that carries the controller (topology/pcie_tunnels)
  Declared,    ///< a capacity declared by the user for a group without topology (`--group NAME=...@CAP`)
};
/// "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link", "usb4_tunnel", "pcie_tunnel",
/// "declared".
std::string_view to_string(ResourceKind k);

/// A capacity-limited thing on a drive's path to the root.
struct Resource {
  std::string id;  ///< unique and stable: "<kind>:<node>", e.g. "pcie_link:0000:03:00.0"
  ResourceKind kind = ResourceKind::DriveLink;
  std::string node;  ///< stable id of the vertex it belongs to: BDF, kernel name ("2-1.4", "usb1")
  std::optional<Vertex> vertex;       ///< the topology vertex (absent for declared groups)
  std::optional<Bandwidth> capacity;  ///< nullopt: not modelled, never limits
  std::string label;                  ///< human description: "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042 ...)"
  /// Where `capacity` comes from when it is not the table's: a measured capacity (CapacityModel::calibrated)
  /// or a published one (CapacityModel::published)
  std::optional<Basis> capacity_basis;
  bool operator==(const Resource&) const = default;
};

/// What a resource's vertex is, to tell a remembered measurement's resource from another one at the same
/// place: "vvvv:dddd" PCI ids of a controller or PCI hop, USB vid:pid of a hub, vendor:device of a router;
/// "" when unknown.
std::string resource_identity(const Topology& t, Vertex v);

/// The resources on the path of block device `block` to its root, nearest to the drive first: its drive
/// link, the uplink of every hub above it (inner hub first), the EHCI/OHCI/UHCI bus of its root hub, its
/// controller, and every PCIe link from the controller up to the root port. Empty for a block device that
/// is not below a USB device.
///
/// An xHCI root port gets no separate resource: each xHCI root port has its own link, and that link is
/// exactly the drive link or the outermost hub uplink already in the list (a duplicate of equal capacity
/// would only tie with it).
std::vector<Resource> path_resources(const Topology& t, Vertex block,
                                     const CapacityModel& m = nominal_model());

/// The link of a drive at `v` (its USB device, or the port `plan` puts a drive on) negotiated at `rate` with
/// storage protocol `proto`: the first resource of path_resources(), and the one plan scores a placement by,
/// so both name it alike ("USB 3.2 Gen 1 UAS link of 4-1 (Portable SSD T5)", id "drive_link:4-1") and both
/// take a calibrated or overridden capacity.
Resource drive_link_resource(const Topology& t, Vertex v, UsbRate rate, StorageProtocol proto,
                             const CapacityModel& m = nominal_model());

/// The resources above downstream port `port` (a Port vertex), nearest first: steps 2-5 of path_resources()
/// (hub uplinks, EHCI/OHCI/UHCI bus, controller, PCIe links). path_resources() of a drive plugged into
/// `port` is its drive link followed by exactly these; the planner uses them for drives not plugged in yet.
std::vector<Resource> upstream_resources(const Topology& t, Vertex port,
                                         const CapacityModel& m = nominal_model());

/// The published measurement of the setup disk `block` is on, for its protocol (kind Published, the table's
/// drive-link figure as `model_mbs`), whether or not it is below the table's; nullopt when no row describes
/// its controller or the row has no figure for its protocol.
std::optional<Basis> published_for_drive(const Topology& t, Vertex block,
                                         const CapacityModel& m = nominal_model());

/// The drive's own link ceiling: the capacity of its drive_link resource (nullopt when unknown or not USB).
std::optional<Bandwidth> drive_link_capacity(const Topology& t, Vertex block,
                                             const CapacityModel& m = nominal_model());

}  // namespace usbsat::topology
