#include "topology/model/node.hpp"

#include <type_traits>

#include "topology/base/string_table.hpp"

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

constexpr StringTable<NodeKind, 10> kNodeKindNames{{{
    {NodeKind::PciHop, "pci"},
    {NodeKind::Controller, "controller"},
    {NodeKind::RootHub, "root_hub"},
    {NodeKind::Hub, "hub"},
    {NodeKind::Port, "port"},
    {NodeKind::Device, "device"},
    {NodeKind::Interface, "interface"},
    {NodeKind::ScsiDevice, "scsi"},
    {NodeKind::Block, "block"},
    {NodeKind::Router, "router"},
}}};

std::string_view to_string(NodeKind k) {
  return kNodeKindNames.name(k, "unknown");
}

constexpr StringTable<HcdKind, 6> kHcdKindTokens{{{
    {HcdKind::Uhci, "uhci"},
    {HcdKind::Ohci, "ohci"},
    {HcdKind::Ehci, "ehci"},
    {HcdKind::Xhci, "xhci"},
    {HcdKind::Usb4, "usb4"},
    {HcdKind::Otg, "otg"},
}}};

std::string_view to_string(HcdKind k) {
  return kHcdKindTokens.name(k, "unknown");
}

constexpr StringTable<StorageProtocol, 4> kStorageProtocolTokens{{{
    {StorageProtocol::None, "none"},
    {StorageProtocol::Bot, "bot"},
    {StorageProtocol::Uas, "uas"},
    {StorageProtocol::Other, "other"},
}}};

std::string_view to_string(StorageProtocol p) {
  return kStorageProtocolTokens.name(p, "none");
}

}  // namespace usbsat::topology
