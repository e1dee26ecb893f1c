// The pure parsers from Windows' raw values, table-tested.
#include <doctest/doctest.h>

#include "topology/windows/parse.hpp"

using namespace usbsat::topology;
using namespace usbsat::topology::windows;

TEST_CASE("windows parse: PCI location information to a PCI address") {
  CHECK(bdf_from_location_info("PCI bus 0, device 20, function 0") == "0000:00:14.0");
  CHECK(bdf_from_location_info("PCI bus 3, device 0, function 0") == "0000:03:00.0");
  CHECK(bdf_from_location_info("PCI bus 0, device 29, function 7") == "0000:00:1d.7");
  CHECK(bdf_from_location_info("PCI bus 255, device 31, function 7") == "0000:ff:1f.7");
  CHECK_FALSE(bdf_from_location_info("PCI bus 256, device 0, function 0"));
  CHECK_FALSE(bdf_from_location_info("PCI bus 0, device 32, function 0"));
  CHECK_FALSE(bdf_from_location_info("PCI bus 0, device 1, function 8"));
  CHECK_FALSE(bdf_from_location_info("Port_#0003.Hub_#0001"));
  CHECK_FALSE(bdf_from_location_info("PCI bus x, device 1, function 0"));
  CHECK_FALSE(bdf_from_location_info(""));
}

TEST_CASE("windows parse: PCI hardware and compatible IDs") {
  const auto ids =
      pci_ids({"PCI\\VEN_8086&DEV_A12F&SUBSYS_86941043&REV_31", "PCI\\VEN_8086&DEV_A12F&SUBSYS_86941043"},
              {"PCI\\VEN_8086&CC_0C0330", "PCI\\CC_0C03"});
  CHECK(ids.vendor_id == 0x8086);
  CHECK(ids.device_id == 0xa12f);
  CHECK(ids.subsystem_vendor_id == 0x1043);
  CHECK(ids.subsystem_device_id == 0x8694);
  CHECK(ids.class_code == 0x0c0330);
  const auto lower = pci_ids({"pci\\ven_1b21&dev_1042"}, {"PCI\\CC_0C0330"});
  CHECK(lower.vendor_id == 0x1b21);
  CHECK(lower.device_id == 0x1042);
  CHECK_FALSE(lower.subsystem_vendor_id);
  CHECK(lower.class_code == 0x0c0330);
  const auto bad =
      pci_ids({"PCI\\VEN_80&DEV_ZZZZ"}, {"PCI\\CC_0C03"});  // short vendor, garbage device, 4-digit class
  CHECK_FALSE(bad.vendor_id);
  CHECK_FALSE(bad.device_id);
  CHECK_FALSE(bad.class_code);
}

TEST_CASE("windows parse: DEVPKEY PCIe link values") {
  CHECK(pcie_speed_from_property(1) == 2.5);
  CHECK(pcie_speed_from_property(2) == 5.0);
  CHECK(pcie_speed_from_property(3) == 8.0);
  CHECK(pcie_speed_from_property(4) == 16.0);
  CHECK(pcie_speed_from_property(5) == 32.0);
  CHECK(pcie_speed_from_property(6) == 64.0);
  CHECK_FALSE(pcie_speed_from_property(0));
  CHECK_FALSE(pcie_speed_from_property(7));
  CHECK(pcie_width_from_property(1) == 1u);
  CHECK(pcie_width_from_property(16) == 16u);
  CHECK_FALSE(pcie_width_from_property(0));
  CHECK_FALSE(pcie_width_from_property(3));
}

TEST_CASE("windows parse: hex bytes") {
  CHECK(parse_hex_bytes("12 01 00 03") == std::string("\x12\x01\x00\x03", 4));
  CHECK(parse_hex_bytes("12010003") == std::string("\x12\x01\x00\x03", 4));
  CHECK(parse_hex_bytes("aB") == std::string("\xab", 1));
  CHECK(parse_hex_bytes("") == std::string());
  CHECK_FALSE(parse_hex_bytes("123"));
  CHECK_FALSE(parse_hex_bytes("12 0g"));
}

TEST_CASE("windows parse: speeds from USB_DEVICE_SPEED and the V2 flags") {
  CHECK(negotiated_speed(0u, std::nullopt) == UsbSpeed::Low);
  CHECK(negotiated_speed(1u, std::nullopt) == UsbSpeed::Full);
  CHECK(negotiated_speed(2u, true) == UsbSpeed::High);
  CHECK(negotiated_speed(3u, std::nullopt) == UsbSpeed::Super);
  CHECK(negotiated_speed(3u, false) == UsbSpeed::Super);
  CHECK(negotiated_speed(3u, true) == UsbSpeed::SuperPlus);
  CHECK_FALSE(negotiated_speed(4u, std::nullopt));
  CHECK_FALSE(negotiated_speed(std::nullopt, true));
  CHECK(flag_capable_speed(true, false) == UsbSpeed::Super);
  CHECK(flag_capable_speed(true, true) == UsbSpeed::SuperPlus);
  CHECK(flag_capable_speed(std::nullopt, true) == UsbSpeed::SuperPlus);
  CHECK_FALSE(flag_capable_speed(false, false));
  CHECK_FALSE(flag_capable_speed(std::nullopt, std::nullopt));
}

TEST_CASE("windows parse: storage protocol from the service") {
  CHECK(storage_protocol("UASPStor", 0x08) == StorageProtocol::Uas);
  CHECK(storage_protocol("uaspstor", std::nullopt) == StorageProtocol::Uas);
  CHECK(storage_protocol("USBSTOR", 0x08) == StorageProtocol::Bot);
  CHECK(storage_protocol("usbstor", std::nullopt) == StorageProtocol::Bot);
  CHECK(storage_protocol("WUDFRd", 0x08) == StorageProtocol::Other);
  CHECK(storage_protocol("HidUsb", 0x03) == StorageProtocol::None);
  CHECK(storage_protocol("", std::nullopt) == StorageProtocol::None);
}

TEST_CASE("windows parse: bus types, controller services, Windows versions") {
  CHECK(transport_from_bus_type(7u) == "usb");
  CHECK(transport_from_bus_type(11u) == "sata");
  CHECK(transport_from_bus_type(17u) == "nvme");
  CHECK(transport_from_bus_type(10u) == "sas");
  CHECK(transport_from_bus_type(12u) == "mmc");
  CHECK(transport_from_bus_type(99u) == "unknown");
  CHECK(transport_from_bus_type(std::nullopt) == "unknown");
  CHECK(hcd_kind_from_service("USBXHCI") == HcdKind::Xhci);
  CHECK(hcd_kind_from_service("usbehci") == HcdKind::Ehci);
  CHECK(hcd_kind_from_service("usbohci") == HcdKind::Ohci);
  CHECK(hcd_kind_from_service("usbuhci") == HcdKind::Uhci);
  CHECK(hcd_kind_from_service("pci") == HcdKind::Unknown);
  CHECK(parse_windows_version("10.0.19045") == std::array<unsigned, 3>{10, 0, 19045});
  CHECK(parse_windows_version("6.1") == std::array<unsigned, 3>{6, 1, 0});
  CHECK_FALSE(parse_windows_version("6"));
  CHECK_FALSE(parse_windows_version("Windows 7"));
  CHECK(has_inbox_uas_driver(std::string_view("6.1.7601")) == false);
  CHECK(has_inbox_uas_driver(std::string_view("6.2.9200")) == true);
  CHECK(has_inbox_uas_driver(std::string_view("10.0.22631")) == true);
  CHECK_FALSE(has_inbox_uas_driver(std::nullopt));
  CHECK(iequals("UASPStor", "uaspstor"));
  CHECK_FALSE(iequals("UASPStor", "USBSTOR"));
}
