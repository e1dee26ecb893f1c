#pragma once
/// Pure parsers from the raw values Windows reports (snapshot.hpp) to the model's value types; each returns
/// std::nullopt for a value it cannot use. Table-tested in tests/topology/windows/parse_test.cpp.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/model/node.hpp"
#include "topology/model/speed.hpp"

namespace usbsat::topology::windows {

/// "PCI bus 3, device 0, function 0" (SPDRP_LOCATION_INFORMATION of a PCI device) -> "0000:03:00.0".
/// Windows does not name the PCI segment there; segment 0 is assumed.
std::optional<std::string> bdf_from_location_info(std::string_view s);

/// Vendor, device, subsystem and class code from PCI hardware and compatible IDs:
/// "PCI\VEN_8086&DEV_A12F&SUBSYS_86941043&REV_31" and "PCI\CC_0C0330".
struct PciIds {
  std::optional<std::uint16_t> vendor_id, device_id, subsystem_vendor_id, subsystem_device_id;
  std::optional<std::uint32_t> class_code;  ///< 0x0c0330
};
PciIds pci_ids(const std::vector<std::string>& hardware_ids, const std::vector<std::string>& compatible_ids);

/// DEVPKEY_PciDevice_*LinkSpeed (the PCIe Link Status encoding 1..6) -> GT/s per lane (2.5 ... 64).
std::optional<double> pcie_speed_from_property(std::uint32_t value);
/// DEVPKEY_PciDevice_*LinkWidth -> lanes (1, 2, 4, 8, 12, 16, 32); 0 and other values -> nullopt.
std::optional<unsigned> pcie_width_from_property(std::uint32_t value);

/// Hex bytes as the recorder writes them ("12 01 00 03", "12010003"); odd digits or garbage -> nullopt.
std::optional<std::string> parse_hex_bytes(std::string_view hex);

/// The negotiated speed from USB_DEVICE_SPEED (0 low, 1 full, 2 high, 3 super) and the SuperSpeedPlus flag.
std::optional<UsbSpeed> negotiated_speed(std::optional<unsigned> usb_device_speed,
                                         std::optional<bool> operating_at_super_speed_plus);
/// What the V2 connection flags say the device could do: SuperSpeedPlus capable -> 10G, SuperSpeed capable ->
/// 5G; nullopt when neither flag is set (the flags never say "USB 2.0 only").
std::optional<UsbSpeed> flag_capable_speed(std::optional<bool> super_speed_capable,
                                           std::optional<bool> super_speed_plus_capable);

/// The storage protocol a Windows service means: "UASPStor" -> Uas, "USBSTOR" -> Bot (case-insensitive);
/// another service on a mass-storage interface -> Other; otherwise None.
StorageProtocol storage_protocol(std::string_view service, std::optional<std::uint8_t> interface_class);

/// STORAGE_BUS_TYPE -> the model's transport words ("usb", "sata", "nvme", "sas", "scsi", "ata", "mmc",
/// "virtual", "unknown").
std::string transport_from_bus_type(std::optional<unsigned> bus_type);
constexpr unsigned kBusTypeUsb = 7;

/// Host controller kind from a Windows service name ("USBXHCI", "usbehci", "usbohci", "usbuhci").
HcdKind hcd_kind_from_service(std::string_view service);

/// "10.0.19045" / "6.1.7601" -> {major, minor, build}.
std::optional<std::array<unsigned, 3>> parse_windows_version(std::string_view v);
/// Whether this Windows version ships the UAS driver (UASPStor: Windows 8 = 6.2 and later).
std::optional<bool> has_inbox_uas_driver(std::optional<std::string_view> os_version);

/// Case-insensitive ASCII equality (service names and instance IDs are case-insensitive on Windows).
bool iequals(std::string_view a, std::string_view b);

}  // namespace usbsat::topology::windows
