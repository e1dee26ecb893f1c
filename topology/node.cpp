#include "topology/node.hpp"

#include <type_traits>

namespace usbsat::topology {

const std::string& Node::syspath() const {
  return std::visit([](const auto& info) -> const std::string& { return info.syspath; }, data);
}

std::string_view node_name(const Node& n) {
  return std::visit(
      [](const auto& info) -> std::string_view {
        using T = std::decay_t<decltype(info)>;
        if constexpr (std::is_same_v<T, PciHopInfo> || std::is_same_v<T, ControllerInfo>)
          return info.bdf;
        else if constexpr (std::is_same_v<T, ScsiDeviceInfo>)
          return info.hctl;
        else
          return info.name;
      },
      n.data);
}

std::string_view to_string(NodeKind k) {
  switch (k) {
    case NodeKind::PciHop:
      return "pci";
    case NodeKind::Controller:
      return "controller";
    case NodeKind::RootHub:
      return "root_hub";
    case NodeKind::Hub:
      return "hub";
    case NodeKind::Port:
      return "port";
    case NodeKind::Device:
      return "device";
    case NodeKind::Interface:
      return "interface";
    case NodeKind::ScsiDevice:
      return "scsi";
    case NodeKind::Block:
      return "block";
    case NodeKind::Router:
      return "router";
  }
  return "unknown";
}

std::string_view to_string(HcdKind k) {
  switch (k) {
    case HcdKind::Uhci:
      return "uhci";
    case HcdKind::Ohci:
      return "ohci";
    case HcdKind::Ehci:
      return "ehci";
    case HcdKind::Xhci:
      return "xhci";
    case HcdKind::Usb4:
      return "usb4";
    case HcdKind::Otg:
      return "otg";
    case HcdKind::Unknown:
      break;
  }
  return "unknown";
}

std::string_view to_string(StorageProtocol p) {
  switch (p) {
    case StorageProtocol::None:
      return "none";
    case StorageProtocol::Bot:
      return "bot";
    case StorageProtocol::Uas:
      return "uas";
    case StorageProtocol::Other:
      return "other";
  }
  return "none";
}

}  // namespace usbsat::topology
