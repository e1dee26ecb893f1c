#pragma once
/// Pure parsers for sysfs and udev attribute strings. Every function takes the raw text (a trailing newline
/// is tolerated), returns a value type or std::nullopt, and never touches the file system.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/base/text.hpp"  // trim(), used by callers of these parsers
#include "topology/model/node.hpp"

namespace usbsat::topology {

/// "0781", "0x0781", "8086\n" -> 0x0781. More than 4 hex digits or non-hex -> nullopt.
std::optional<std::uint16_t> parse_hex16(std::string_view s);
/// "0x0c0330", "0c0330" -> 0x0c0330 (up to 8 hex digits).
std::optional<std::uint32_t> parse_hex32(std::string_view s);
/// A hex byte as in `bDeviceClass` ("09", "ff").
std::optional<std::uint8_t> parse_hex8(std::string_view s);
/// A non-negative decimal ("5", " 1", "04" -> 4). Garbage, sign or overflow -> nullopt.
std::optional<std::uint64_t> parse_uint(std::string_view s);

/// bcdUSB as sysfs writes it in `version`: " 2.00" -> 0x0200, " 3.20" -> 0x0320, " 1.10" -> 0x0110.
std::optional<std::uint16_t> parse_bcd_version(std::string_view s);
/// The capable speed implied by bcdUSB alone: >= 3.00 -> Super (5000), >= 2.00 -> High (480), else Full (12).
/// bcdUSB 3.1/3.2 deliberately stays Super: only the BOS descriptors can say 10 or 20 Gb/s.
UsbSpeed speed_from_bcd_usb(std::uint16_t bcd);
/// bMaxPower as sysfs writes it: "896mA", "500mA", "0mA" -> milliamps.
std::optional<unsigned> parse_max_power(std::string_view s);
/// A hub's `maxchild`: its number of downstream ports, 0 to kMaxHubPorts ("4", "15"). Anything else
/// ("4294967295", "99999999999", "-1", "") -> nullopt: garbage must not make phantom ports or none.
inline constexpr unsigned kMaxHubPorts = 255;  ///< bNbrPorts of the hub descriptor is one byte
std::optional<unsigned> parse_maxchild(std::string_view s);

/// The name of a USB port device: "usb2-port3" (root hub of bus 2, port 3) or "1-2.4-port1" (hub 1-2.4).
struct PortName {
  std::string hub;      ///< kernel name of the owning hub device: "usb2", "1-2.4"
  unsigned number = 0;  ///< port number on that hub
  bool operator==(const PortName&) const = default;
};
std::optional<PortName> parse_port_name(std::string_view s);
std::string format_port_name(const PortName& p);
/// The sysfs name of a hub's port: root hub "usb2" + 3 -> "usb2-port3"; hub "1-2" + 4 -> "1-2-port4".
std::string port_name_for(std::string_view hub_name, unsigned port);

/// A USB device or interface kernel name: "2-1.4" (bus 2, ports 1.4), "usb2" (root hub), "2-1.4:1.0".
struct UsbName {
  unsigned bus = 0;
  std::vector<unsigned> ports;                ///< empty for a root hub
  std::optional<unsigned> config, interface;  ///< set for interface names
  bool operator==(const UsbName&) const = default;
};
std::optional<UsbName> parse_usb_name(std::string_view s);
std::string format_usb_name(const UsbName& n);
/// The kernel name of the USB device whose sysfs directory holds `name`'s: an interface's device ("2-1.4:1.0"
/// -> "2-1.4", "2-0:1.0" -> "usb2"), a device's hub ("2-1.4" -> "2-1", "2-1" -> "usb2"); nullopt for a root
/// hub (its parent is the controller) and for names that are not USB names.
std::optional<std::string> usb_parent_name(std::string_view name);
/// How many USB names lie above `name` in sysfs (root hub 0, "2-1" 1, "2-1:1.0" 2, "2-1.4" 2); 0 for names
/// that are not USB names. Sorting by it puts every parent before its children.
std::size_t usb_name_depth(std::string_view name);

/// A value of one `physical_location/<field>` file, e.g. "front", "upper", "yes"/"no" for dock and lid.
std::optional<bool> parse_yes_no(std::string_view s);

/// One entry of the usb-storage `quirks` module parameter: "VID:PID:flags".
struct StorageQuirk {
  std::uint16_t vendor_id = 0, product_id = 0;
  std::string flags;  ///< letters as given ("u" = IGNORE_UAS, "m" = MAX_SECTORS_64, ...)
  bool ignore_uas() const {
    return flags.find('u') != std::string::npos || flags.find('U') != std::string::npos;
  }
  bool operator==(const StorageQuirk&) const = default;
};
/// Parse "0bc2:ab20:u,174c:55aa:u"; malformed entries are skipped, an empty parameter gives {}.
std::vector<StorageQuirk> parse_storage_quirks(std::string_view s);

/// `uevent` (and udev property) text: KEY=VALUE lines. Lines without '=' are ignored.
std::map<std::string, std::string, std::less<>> parse_uevent(std::string_view text);

/// A PCI uevent's id pair, PCI_ID / PCI_SUBSYS_ID "8086:7A38" (vendor:device, hex, as the kernel's
/// pci_uevent writes them) -> {0x8086, 0x7a38}.
std::optional<std::pair<std::uint16_t, std::uint16_t>> parse_pci_id_pair(std::string_view s);

/// uevent triplets: PRODUCT "781/558c/1012" (hex, base 16), TYPE / INTERFACE "8/6/80" (decimal, base 10).
std::optional<std::array<std::uint32_t, 3>> parse_triplet(std::string_view s, int base);

/// A PCI address "0000:00:1d.7" (domain:bus:device.function).
struct PciAddress {
  std::uint32_t domain = 0;
  std::uint8_t bus = 0, device = 0, function = 0;
  bool same_slot(const PciAddress& o) const {
    return domain == o.domain && bus == o.bus && device == o.device;
  }
  bool operator==(const PciAddress&) const = default;
};
std::optional<PciAddress> parse_pci_address(std::string_view s);

/// Host controller kind from the PCI class code (0x0c03 + prog-if): 0x00 UHCI, 0x10 OHCI, 0x20 EHCI,
/// 0x30 xHCI, 0x40 USB4; any other class -> nullopt.
std::optional<HcdKind> hcd_kind_from_class(std::uint32_t class_code);
/// Host controller kind from a driver name ("xhci_hcd", "ehci-pci", "ohci-platform", "uhci_hcd").
HcdKind hcd_kind_from_driver(std::string_view driver);

/// Transport of a block device that is not below a USB interface, from its syspath and the names of the
/// drivers/subsystems on the way: "nvme", "sata", "virtio", "mmc", "loop", "scsi", "unknown".
std::string transport_from_syspath(std::string_view syspath);

/// Lexically resolve a relative symlink target against the directory holding the link:
/// ("/sys/devices/x/y", "../z") -> "/sys/devices/x/z". Absolute targets are only normalised.
std::string resolve_link(std::string_view link_dir, std::string_view target);

}  // namespace usbsat::topology
