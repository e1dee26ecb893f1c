#pragma once
/// WindowsSnapshot: what the Win32 layer (topology/windows/win32/) moves out of CfgMgr32/SetupAPI and the USB
/// and storage IOCTLs, as plain values and nothing decided. Every value is the raw one Windows returns (enum
/// numbers, hex descriptor bytes, instance IDs), so a recording taken on Windows can be replayed and judged
/// on any platform by build_topology() (builder.hpp). Everything that may be missing is std::optional: a
/// missing property is "unknown", never an error.
///
/// The JSON form (the `data` of a "windows" recording) uses the field names below; snapshot_json.hpp reads
/// and writes it, and tests/fixtures/windows/README.md documents it with examples.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace usbsat::topology::windows {

/// DEVPKEY_PciDevice_CurrentLinkSpeed/Width and MaxLinkSpeed/Width as Windows returns them: the speed is the
/// PCIe Link Status encoding (1 = 2.5 GT/s, 2 = 5, 3 = 8, 4 = 16, 5 = 32, 6 = 64), the width the lane count.
struct PcieLinkProps {
  std::optional<std::uint32_t> current_speed, current_width, max_speed, max_width;
  bool operator==(const PcieLinkProps&) const = default;
};

/// One PCI device node: a USB host controller or a bridge / root port above one.
struct PciFunction {
  std::string instance_id;                ///< "PCI\VEN_8086&DEV_A12F&SUBSYS_86941043&REV_31\3&11583659&0&A0"
  std::vector<std::string> hardware_ids;  ///< SPDRP_HARDWAREID, most specific first
  std::vector<std::string> compatible_ids;  ///< SPDRP_COMPATIBLEIDS ("PCI\CC_0C0330", ...)
  std::optional<std::string>
      location_info;  ///< SPDRP_LOCATION_INFORMATION: "PCI bus 0, device 20, function 0"
  std::optional<std::string> location_path;  ///< DEVPKEY_Device_LocationPaths[0]: "PCIROOT(0)#PCI(1400)"
  std::optional<std::string> service;        ///< SPDRP_SERVICE: "USBXHCI", "usbehci", "pci"
  std::optional<std::string> description;    ///< SPDRP_DEVICEDESC
  std::optional<std::string> manufacturer;   ///< SPDRP_MFG
  PcieLinkProps link;
  bool operator==(const PciFunction&) const = default;
};

struct UsbDevice;

/// USB_PROTOCOLS of IOCTL_USB_GET_NODE_CONNECTION_INFORMATION_EX_V2: the protocols a port supports.
struct UsbProtocols {
  std::optional<bool> usb110, usb200, usb300;
  bool operator==(const UsbProtocols&) const = default;
};

/// One downstream port of a hub (root hub or external hub), with what is plugged into it.
struct UsbPort {
  unsigned number = 0;  ///< ConnectionIndex, 1-based; Windows' Port_#000N
  /// USB_CONNECTION_STATUS (0 NoDeviceConnected, 1 DeviceConnected, 2 DeviceFailedEnumeration, ...).
  std::optional<unsigned> connection_status;
  /// USB_DEVICE_SPEED of the attached device (0 low, 1 full, 2 high, 3 super); SuperSpeedPlus is a flag.
  std::optional<unsigned> speed;
  UsbProtocols protocols;
  // USB_NODE_CONNECTION_INFORMATION_EX_V2_FLAGS (Windows 8+; the SuperSpeedPlus ones Windows 10 1703+).
  std::optional<bool> operating_at_super_speed_or_higher, super_speed_capable_or_higher;
  std::optional<bool> operating_at_super_speed_plus_or_higher, super_speed_plus_capable_or_higher;
  // IOCTL_USB_GET_PORT_CONNECTOR_PROPERTIES: the companion (the other protocol's port of the same connector).
  std::optional<unsigned> companion_index, companion_port;
  std::optional<std::string> companion_hub;  ///< symbolic link name of the companion's hub ("" = none)
  std::optional<bool> user_connectable, debug_capable, type_c;
  /// The device in the port (zero or one element; a vector because UsbDevice is not complete here).
  std::vector<UsbDevice> device;
  bool operator==(const UsbPort&) const;  ///< defaulted below, once UsbDevice is complete
};

/// A hub as its hub node answers IOCTL_USB_GET_NODE_INFORMATION / IOCTL_USB_GET_HUB_INFORMATION_EX.
struct UsbHub {
  std::optional<std::string> symbolic_link;  ///< "USB#ROOT_HUB30#4&2d4fd8a8&0&0#{f18a0e88-...}"
  std::optional<unsigned> hub_type;          ///< USB_HUB_TYPE: 1 UsbRootHub, 2 Usb20Hub, 3 Usb30Hub
  std::optional<unsigned> number_of_ports;   ///< bNumberOfPorts / HighestPortNumber
  std::vector<UsbPort> ports;
  bool operator==(const UsbHub&) const = default;
};

/// A child function of a composite device (USBCCGP): "USB\VID_..&PID_..&MI_00\...".
struct UsbFunction {
  unsigned interface_number = 0;
  std::string instance_id;
  std::optional<std::string> service;  ///< "UASPStor", "USBSTOR", "HidUsb"
  bool operator==(const UsbFunction&) const = default;
};

/// A USB device (a function or a hub) in a port.
struct UsbDevice {
  std::string instance_id;                   ///< "USB\VID_04E8&PID_61F5\1234567A0B9C"
  std::optional<std::string> service;        ///< "UASPStor", "USBSTOR", "USBCCGP", "USBHUB3", "usbhub"
  std::optional<std::string> description;    ///< SPDRP_DEVICEDESC
  std::optional<std::string> location_info;  ///< "Port_#0003.Hub_#0001"
  std::optional<std::string> location_path;  ///< "PCIROOT(0)#PCI(1400)#USBROOT(0)#USB(3)"
  /// Descriptors as hex bytes: the 18-byte device descriptor from the connection information, the whole
  /// active configuration (IOCTL_USB_GET_DESCRIPTOR_FROM_NODE_CONNECTION) and the BOS descriptor set.
  std::optional<std::string> device_descriptor, configuration_descriptor, bos_descriptor;
  std::optional<std::string> manufacturer, product, serial;  ///< string descriptors (English)
  std::optional<unsigned> current_configuration;             ///< CurrentConfigurationValue
  std::vector<UsbFunction> functions;
  std::optional<UsbHub> hub;  ///< set when the device is a hub
  bool operator==(const UsbDevice&) const = default;
};

// Written out rather than defaulted: clang 14 (the fuzz build) crashes defaulting it out of line over this
// recursive structure (port -> device -> hub -> ports).
inline bool UsbPort::operator==(const UsbPort& o) const {
  return number == o.number && connection_status == o.connection_status && speed == o.speed &&
         protocols == o.protocols &&
         operating_at_super_speed_or_higher == o.operating_at_super_speed_or_higher &&
         super_speed_capable_or_higher == o.super_speed_capable_or_higher &&
         operating_at_super_speed_plus_or_higher == o.operating_at_super_speed_plus_or_higher &&
         super_speed_plus_capable_or_higher == o.super_speed_plus_capable_or_higher &&
         companion_index == o.companion_index && companion_port == o.companion_port &&
         companion_hub == o.companion_hub && user_connectable == o.user_connectable &&
         debug_capable == o.debug_capable && type_c == o.type_c && device.size() == o.device.size() &&
         std::equal(device.begin(), device.end(), o.device.begin(),
                    [](const UsbDevice& x, const UsbDevice& y) { return x == y; });
}

/// A USB host controller with its PCI path and root hub.
struct HostController {
  PciFunction pci;
  std::vector<PciFunction>
      upstream;  ///< PCI bridges from the controller's parent up to the root port, nearest first
  std::optional<std::string> root_hub_instance_id;  ///< "USB\ROOT_HUB30\4&2d4fd8a8&0&0"
  std::optional<UsbHub> root_hub;
  bool operator==(const HostController&) const = default;
};

/// A volume with at least one extent on a disk.
struct Volume {
  std::string name;                       ///< "\\?\Volume{6a7f...}\"
  std::vector<std::string> mount_points;  ///< "E:\", "C:\mnt\backup\"
  std::optional<std::uint64_t> size_bytes;
  std::optional<std::string> filesystem;  ///< "NTFS", "exFAT"
  std::optional<unsigned> partition_number;
  bool operator==(const Volume&) const = default;
};

struct ScsiAddress {
  unsigned port = 0, path = 0, target = 0, lun = 0;
  bool operator==(const ScsiAddress&) const = default;
};

/// One disk (GUID_DEVINTERFACE_DISK) with what IOCTL_STORAGE_* and IOCTL_DISK_* report.
struct Disk {
  unsigned device_number = 0;  ///< IOCTL_STORAGE_GET_DEVICE_NUMBER: \\.\PhysicalDriveN
  std::optional<std::string>
      instance_id;                     ///< "USBSTOR\DISK&VEN_SANDISK&PROD_CRUZER_BLADE&REV_1.00\4C53...&0"
  std::vector<std::string> ancestors;  ///< CM_Get_Parent chain, nearest first, up to the root
  std::optional<unsigned> bus_type;    ///< STORAGE_BUS_TYPE (7 USB, 11 SATA, 17 NVMe, ...)
  std::optional<std::string> vendor, product, revision, serial;  ///< STORAGE_DEVICE_DESCRIPTOR strings
  std::optional<std::uint64_t> size_bytes;                       ///< IOCTL_DISK_GET_LENGTH_INFO
  std::optional<bool> removable;                                 ///< STORAGE_DEVICE_DESCRIPTOR.RemovableMedia
  std::optional<bool> incurs_seek_penalty;                       ///< StorageDeviceSeekPenaltyProperty
  std::optional<bool> read_only;
  std::optional<bool> system_disk, boot_disk;  ///< holds the Windows directory / the boot volume
  std::optional<ScsiAddress> scsi_address;     ///< IOCTL_SCSI_GET_ADDRESS
  std::optional<unsigned> logical_sector_bytes, physical_sector_bytes;  ///< StorageAccessAlignmentProperty
  std::optional<unsigned> max_transfer_bytes;  ///< STORAGE_ADAPTER_DESCRIPTOR.MaximumTransferLength
  std::vector<Volume> volumes;
  bool operator==(const Disk&) const = default;
};

struct WindowsSnapshot {
  std::optional<std::string> os_version;  ///< "10.0.19045", "6.1.7601"
  std::vector<HostController> controllers;
  std::vector<Disk> disks;
  bool operator==(const WindowsSnapshot&) const = default;
};

}  // namespace usbsat::topology::windows
