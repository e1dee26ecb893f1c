#pragma once
/// The bundled edge type of the topology graph: the link from a parent node to a child node.
#include <optional>

#include "topology/model/pcie_link.hpp"
#include "topology/model/speed.hpp"

namespace usbsat::topology {

enum class LinkKind : std::uint8_t {
  Pci,   ///< PCIe link: parent is a PCI hop, child a PCI hop or controller
  Usb,   ///< USB cable/trace: port -> device (negotiated speed, lanes)
  Usb4,  ///< USB4/Thunderbolt link: parent router -> child router (speed and lanes on the child's RouterInfo)
  Internal,  ///< containment with no bandwidth of its own: controller -> root hub, hub -> port, device ->
             ///< interface ...
};

struct Link {
  LinkKind kind = LinkKind::Internal;
  std::optional<UsbSpeed> usb_speed;  ///< Usb: negotiated speed of the child device
  unsigned lanes = 1;                 ///< Usb: rx_lanes (Gen 1x2 / 2x2 use 2)
  PcieLink pcie;                      ///< Pci: the child's link attributes
};

}  // namespace usbsat::topology
