#pragma once
/// Connectors grouped by host controller: the pure query behind `usbsat ports`, and the controller /
/// connector summaries that `drives` (and doctor/plan/saturate) share. Nothing here reads sysfs.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// A USB host controller as the user-facing views show it.
struct ControllerSummary {
  Vertex vertex{};
  std::string pci;  ///< PCI address "0000:00:14.0" (or the platform device name)
  HcdKind kind = HcdKind::Unknown;
  std::optional<std::uint16_t> vendor_id, device_id;
  std::string vendor;  ///< hwdb vendor name, may be empty
  std::string name;    ///< hwdb model name ("ASM1042 SuperSpeed USB Host Controller"), may be empty
  std::string driver;  ///< "xhci_hcd"
  PcieLink link;       ///< the controller function's own PCIe link (empty when integrated / unknown)
  std::vector<std::string> companions;  ///< EHCI <-> UHCI/OHCI companions (PCI addresses)
  std::vector<std::string> root_hubs;   ///< "usb1", "usb2"
};

/// One PCI hop above a controller that has link attributes.
struct PcieHopSummary {
  Vertex vertex{};
  std::string pci;   ///< "0000:00:1c.4"
  std::string name;  ///< hwdb model name, may be empty
  PcieLink link;
};

/// How fast a connector can go, from the buses its ports are wired to. Usb2PeerUnknown: a USB2 port whose
/// hub has a SuperSpeed half, but no port of the hub has a `peer` link, so whether this connector has a
/// USB3 side is unknown (Usb2Only is said only where the data shows it: no SuperSpeed half, or peers known).
enum class ConnectorClass : std::uint8_t {
  Unknown,
  Usb1Only,
  Usb2Only,
  Usb2PeerUnknown,
  Usb3_5G,
  Usb3_10G,
  Usb3_20G,
  Usb4
};
/// "USB1.1 only", "USB2 only", "USB2 (USB3 side unknown)", "USB3 5G", "USB3 10G", "USB3 20G (Gen2x2)",
/// "USB4", "unknown".
std::string_view to_string(ConnectorClass c);
/// The class of a connector whose fastest side sits on a bus of speed `s`.
ConnectorClass connector_class(std::optional<UsbSpeed> fastest_bus);
/// Whether a connector with only a USB2 side may still have a SuperSpeed side the data does not show: its
/// hub has a SuperSpeed counterpart (the controller's SuperSpeed root hub, the USB3 half of a hub) but no
/// port of the hub has a `peer` link, so the kernel (or the recording) said nothing about peers at all
/// (no ACPI _PLD, old kernels). Where some ports of the hub have peers, a port without one has none.
bool superspeed_peer_unknown(const Topology& t, Vertex usb2_port);

/// A physical connector (USB2 port + its USB3 peer, or a lone port) as the user-facing views show it.
struct ConnectorSummary {
  std::size_t index = 0;  ///< into Topology::connectors()
  std::string id;         ///< "usb1-port3" (the USB2 side's port name when there is one)
  std::string label;      ///< "usb1/usb2 port 3", "hub 1-1/2-1 port 2": which hub(s) and port number
  std::string hub;        ///< kernel name of the owning hub on the id side ("usb1", "1-1")
  bool on_root_hub = false;
  unsigned number = 0;                              ///< port number on its hub
  std::optional<std::string> usb2_port, usb3_port;  ///< port names of the two sides
  std::optional<UsbSpeed> max_speed;                ///< speed of the fastest bus the connector is wired to
  ConnectorClass speed_class = ConnectorClass::Unknown;
  std::optional<std::string> connect_type, location;
  std::optional<PhysicalLocation> physical_location;  ///< from either side (the USB2 side first)
  std::optional<Vertex> occupant;            ///< the Hub or Device plugged in (the USB3 side's when both are)
  std::optional<std::string> occupant_name;  ///< its kernel name ("2-1")
  std::vector<std::string>
      devices;  ///< kernel names of the devices on either side, USB2 side first ("1-1", "2-1")
  std::vector<std::string> drives;  ///< whole disks behind either side, in block_devices() order
};

/// A physical hub (both halves of a USB3 hub count as one) and the drives behind it.
struct HubShare {
  std::string hub;                  ///< kernel name of the first half in tree order ("1-1")
  std::optional<std::string> peer;  ///< the other half ("2-1"), when paired
  std::string description;          ///< "05e3:0610 GenesysLogic USB2.1 Hub"
  std::vector<std::string> drives;  ///< whole disks behind either half
};

/// One controller with all its connectors (root-hub and external-hub ones), in topology order.
struct ControllerPorts {
  ControllerSummary controller;
  std::vector<PcieHopSummary> pcie_uplink;  ///< nearest first
  std::vector<ConnectorSummary> connectors;
  std::vector<std::string> drives;  ///< every whole disk below the controller
  std::vector<HubShare> hubs;       ///< every physical hub below the controller
  std::size_t occupied() const;
};

ControllerSummary summarize_controller(const Topology& t, Vertex controller);
std::vector<PcieHopSummary> summarize_pcie_uplink(const Topology& t, Vertex controller);
ConnectorSummary summarize_connector(const Topology& t, std::size_t connector_index);
/// Every whole-disk block device at or below `v`, in block_devices() order.
std::vector<Vertex> drives_below(const Topology& t, Vertex v);
/// Connectors grouped by controller, controllers in Topology::controllers() order.
std::vector<ControllerPorts> summarize_ports(const Topology& t);
/// Controllers sharing one PCIe hop (a switch or root port above several controllers): groups of two or
/// more controller PCI addresses with the hop they share, nearest shared hop only.
struct SharedUplink {
  std::string pci;                       ///< the shared PCI hop
  std::vector<std::string> controllers;  ///< PCI addresses of the controllers below it
};
std::vector<SharedUplink> shared_pcie_uplinks(const Topology& t);

}  // namespace usbsat::topology
