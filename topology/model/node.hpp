#pragma once
/// The bundled vertex type of the topology graph: one Node per PCI hop, host controller, root hub, hub, port,
/// USB device, interface, SCSI device and block device. Every string is what sysfs said as the scan boundary
/// made it safe (topology/scan/safe_source.hpp: surrounding blanks dropped, control characters and invalid
/// UTF-8 escaped); every attribute that may be absent is std::optional.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "topology/model/edid.hpp"
#include "topology/model/pcie_link.hpp"
#include "topology/model/speed.hpp"
#include "topology/model/usb4_link.hpp"

namespace usbsat::topology {

enum class NodeKind : std::uint8_t {
  PciHop,      ///< a PCI bridge / root port / switch port above a controller
  Controller,  ///< a USB host controller (PCI class 0x0c03, or a platform controller)
  RootHub,     ///< usbN: the controller's virtual root hub (an xHCI has one USB2 and one USB3 root hub)
  Hub,         ///< an external (or on-board) USB hub device
  Port,        ///< a downstream port of a root hub or hub (usbN-portM, X-portM)
  Device,      ///< a USB device that is not a hub
  Interface,   ///< a USB interface X:C.I
  ScsiDevice,  ///< a SCSI device H:C:T:L (one per LUN)
  Block,       ///< a whole-disk block device (sda, nvme0n1, vda)
  Router,      ///< a USB4/Thunderbolt router (thunderbolt bus "0-0" host, "0-1" dock):
               ///< topology/model/usb4_link.hpp
};
/// How many node kinds there are: a new kind goes last, before this count is taken (Topology indexes by
/// kind).
inline constexpr std::size_t kNodeKinds = static_cast<std::size_t>(NodeKind::Router) + 1;

/// Host controller interface, from the PCI programming interface byte (class 0x0c03xx).
/// Otg: a SoC's USB 2.0 dual-role controller that is not EHCI (DesignWare DWC2 `dwc2`/`dwc_otg`, Mentor
/// `musb`).
enum class HcdKind : std::uint8_t { Unknown, Uhci, Ohci, Ehci, Xhci, Usb4, Otg };

/// A PCI function on the path from the root complex to a controller (root port, switch port, bridge).
struct PciHopInfo {
  std::string syspath;
  std::string bdf;  ///< "0000:00:1c.0"
  std::optional<std::uint16_t> vendor_id, device_id;
  std::optional<std::uint32_t> class_code;  ///< 0x060400 for a PCI bridge
  std::string driver;                       ///< "pcieport", "" when unbound
  std::string vendor_name, model_name;      ///< from the udev hwdb, may be empty
  PcieLink link;                            ///< this function's own link (its upstream side)
  /// `removable` (Linux >= 5.13): true when the kernel marked it "removable" (below an external-facing
  /// port: a Thunderbolt device's PCIe switch), false for "fixed". Read only on a machine with a
  /// thunderbolt bus, and only for hops behind a host router's PCIe downstream ports (topology/tb3_tunnel).
  std::optional<bool> removable;
};

/// A USB host controller.
struct ControllerInfo {
  std::string syspath;
  std::string bdf;  ///< PCI address, or the platform device name ("fe9c0000.usb") for non-PCI controllers
  bool is_pci = true;
  HcdKind kind = HcdKind::Unknown;
  std::optional<std::uint16_t> vendor_id, device_id, subsystem_vendor_id, subsystem_device_id;
  std::optional<std::uint32_t> class_code;  ///< 0x0c0330 for xHCI
  std::string driver;                       ///< "xhci_hcd", "ehci-pci", "ohci-pci", "uhci_hcd"
  std::string vendor_name, model_name;      ///< from the udev hwdb ("ASMedia Technology Inc.", "ASM1042 ...")
  PcieLink link;                        ///< the controller function's own link, when it is a PCIe endpoint
  std::vector<std::string> companions;  ///< EHCI: BDFs of its UHCI/OHCI companions; companions: their EHCI
};

/// A USB device: root hub, hub or function. `kind` of the owning Node tells which.
struct UsbDeviceInfo {
  std::string syspath;
  std::string name;  ///< kernel name: "usb2", "2-1", "2-1.4"
  unsigned busnum = 0, devnum = 0;
  std::vector<unsigned> ports;  ///< port numbers from the root hub down; empty for a root hub
  std::optional<std::uint16_t> vendor_id, product_id, bcd_device;
  std::optional<std::string> manufacturer, product, serial;
  std::string version;  ///< bcdUSB as the scan boundary left it: "3.20" (sysfs " 3.20", trimmed)
  std::optional<std::uint16_t> bcd_usb;   ///< parsed version, 0x0320
  std::optional<UsbSpeed> speed;          ///< negotiated speed (`speed`)
  std::optional<UsbSpeed> capable_speed;  ///< from BOS SuperSpeed(Plus) capabilities, else from bcdUSB
  bool capable_from_bos = false;          ///< capable_speed came from bos_descriptors, not bcdUSB
  std::optional<unsigned> rx_lanes, tx_lanes;
  std::optional<unsigned> max_power_ma;      ///< bMaxPower ("896mA")
  std::optional<std::uint8_t> device_class;  ///< bDeviceClass (0x09 hub)
  std::optional<unsigned> num_configurations;
  std::optional<unsigned> maxchild;          ///< hubs: number of downstream ports
  std::optional<std::string> removable;      ///< "removable", "fixed", "unknown"
  std::optional<std::string> power_control;  ///< power/control: "auto" or "on"
  std::optional<std::string> hub_peer;  ///< hubs: syspath of the other half (USB2 <-> USB3) of the same hub
  std::string driver;                   ///< "usb"
  std::string vendor_name, model_name;  ///< from the udev hwdb
};

/// Firmware-described physical location of a port (ACPI _PLD), `physical_location/` in sysfs.
struct PhysicalLocation {
  std::optional<std::string> panel;                ///< "front", "back", "top", "left", ...
  std::optional<std::string> vertical_position;    ///< "upper", "center", "lower"
  std::optional<std::string> horizontal_position;  ///< "left", "center", "right"
  std::optional<bool> dock, lid;
  bool operator==(const PhysicalLocation&) const = default;
};

/// A downstream port of a (root) hub.
struct PortInfo {
  std::string syspath;
  std::string name;      ///< "usb1-port3", "1-2-port4"
  unsigned number = 0;   ///< port number on its hub
  std::string hub_name;  ///< kernel name of the owning hub device ("usb1", "1-2")
  std::optional<UsbSpeed>
      hub_speed;  ///< speed of the hub's own bus: a USB2 port (480) or a USB3 port (>= 5000)
  std::optional<std::string> connect_type;  ///< "hotplug", "hardwired", "not used", "unknown"
  std::optional<std::string> location;      ///< "0x00000003" style hex from the hub descriptor/ACPI
  std::optional<std::string> peer;          ///< syspath of the peer port (the other half of the connector)
  std::optional<std::string> state;         ///< "not attached", "configured", ...
  std::optional<unsigned> over_current_count;
  std::optional<std::string> quirks;  ///< hex, "0x0"
  std::optional<std::string> usb3_lpm_permit;
  std::optional<PhysicalLocation> physical_location;
  bool synthesized =
      false;  ///< no sysfs directory (kernel < 3.5 or a partial recording): derived from maxchild

  /// The USB3 half of its connector: its hub runs SuperSpeed (an unknown hub speed counts as USB2).
  bool usb3_side() const { return hub_speed && is_superspeed(*hub_speed); }
};

/// One alternate setting of an interface, from the binary `descriptors` file.
struct AltSetting {
  std::uint8_t number = 0, interface_class = 0, interface_subclass = 0, interface_protocol = 0,
               num_endpoints = 0;
  bool operator==(const AltSetting&) const = default;
};

/// Transport protocol of a mass-storage interface.
enum class StorageProtocol : std::uint8_t { None, Bot, Uas, Other };

struct InterfaceInfo {
  std::string syspath;
  std::string name;  ///< "2-1.4:1.0"
  std::uint8_t number = 0;
  std::optional<std::uint8_t> interface_class, interface_subclass,
      interface_protocol;                   ///< active alt setting
  std::optional<std::uint8_t> alt_setting;  ///< bAlternateSetting (active)
  std::optional<std::uint8_t> num_endpoints;
  std::vector<AltSetting> alt_settings;  ///< all alt settings of this interface number in the descriptors
  std::optional<std::string> interface_string;
  std::string driver;  ///< "uas", "usb-storage", "usbhid", "" when unbound
  StorageProtocol storage = StorageProtocol::None;
  bool uas_capable = false;                       ///< some alt setting is 08/06/62
  std::optional<std::string> uas_blocked_reason;  ///< why a UAS-capable interface runs BOT, when visible
};

struct ScsiDeviceInfo {
  std::string syspath;
  std::string hctl;  ///< "6:0:0:0"
  std::string host;  ///< "host6"
  std::optional<std::string> vendor, model, rev;
  std::optional<unsigned> type;               ///< SCSI peripheral type (0 disk, 5 cd-rom)
  std::optional<unsigned> queue_depth;        ///< 1 for BOT, > 1 for UAS
  std::optional<std::string> host_proc_name;  ///< scsi_host proc_name ("usb-storage"; uas sets none)
};

struct Partition {
  std::string name;  ///< "sda1"
  std::optional<std::uint64_t> size_bytes;
  std::vector<std::string> mountpoints;  ///< from /proc/self/mountinfo
  std::vector<std::string> holders;      ///< dm-0, md0
  bool operator==(const Partition&) const = default;
};

struct BlockInfo {
  std::string syspath;
  std::string name;                   ///< "sda"
  std::string devnode;                ///< "/dev/sda"
  std::optional<std::string> devnum;  ///< "8:0"
  std::optional<std::uint64_t> size_bytes;
  std::optional<std::string> vendor, model, serial;
  std::optional<unsigned> logical_block_size, physical_block_size;
  std::optional<unsigned> max_sectors_kb, max_hw_sectors_kb, nr_requests;
  std::optional<bool> rotational, removable, read_only;
  std::vector<Partition> partitions;
  std::vector<std::string> mountpoints;  ///< of the whole disk
  std::vector<std::string> holders;
  std::optional<std::string> hctl;      ///< SCSI address of the disk's LUN ("6:0:0:0"), USB or not
  std::optional<unsigned> queue_depth;  ///< that SCSI device's queue_depth (1 for BOT, > 1 for UAS/SATA NCQ)
  bool usb = false;                     ///< below a USB device
  std::string transport;                ///< "usb", "sata", "nvme", "virtio", "scsi", "mmc", "loop", "unknown"
  /// The storage controller device of a non-USB disk when the disk's own path does not show it: the first
  /// path controller ("/sys/devices/.../nvme/nvme0") of an NVMe multipath namespace head, which lives below
  /// /sys/devices/virtual/nvme-subsystem.
  std::optional<std::string> storage_controller;
};

/// A connected DRM connector routed through a Type-C connector (/sys/class/drm/cardN-<type>-<n> with a
/// `typec_connector` link, drivers/gpu/drm/drm_sysfs.c since Linux 6.4): a display whose DisplayPort
/// tunnel rides the USB4 link leaving that connector.
struct DisplayConnectorInfo {
  std::string syspath;
  std::string name;              ///< "card0-DP-1"
  std::optional<bool> enabled;   ///< `enabled`: "enabled" / "disabled"
  std::optional<EdidInfo> edid;  ///< the parsed `edid` (preferred mode, monitor name), when readable
  bool operator==(const DisplayConnectorInfo&) const = default;
};

/// A USB4 port of a router (`usb4_portN` below the router on the thunderbolt bus).
struct Usb4PortInfo {
  unsigned number = 0;                   ///< N of usb4_portN (the router's lane adapter number)
  std::optional<Usb4LinkType> link;      ///< `link`: what is connected (usb4, tbt, none)
  std::optional<std::string> connector;  ///< target of the `connector` link: the Type-C connector it serves
  /// Syspaths of the host xHCI's USB ports whose own `connector` link names the same Type-C connector: the
  /// USB3 tunnel of a USB4 router on this port arrives there (read only on host routers).
  std::vector<std::string> usb_ports;
  /// Connected DRM connectors whose `typec_connector` link names the same Type-C connector (host routers
  /// only), in syspath order.
  std::vector<DisplayConnectorInfo> displays;
  bool operator==(const Usb4PortInfo&) const = default;
};

/// A USB4 or Thunderbolt router. Host routers ("0-0") are roots of the graph; a device router hangs below
/// the router it is connected to, by a LinkKind::Usb4 edge whose speed and lanes are this router's.
struct RouterInfo {
  std::string syspath;
  std::string name;  ///< "0-0", "0-1", "0-301"
  RouterAddress address;
  std::optional<unsigned> generation;  ///< `generation`: 1-3 Thunderbolt 1-3, 4 USB4
  std::optional<std::uint16_t> vendor_id, device_id;
  std::optional<std::string> vendor_name, device_name;
  /// Device routers: the link to the parent router, per lane in Gb/s (`rx_speed`/`tx_speed`), and its lanes.
  std::optional<unsigned> rx_speed_gbps, tx_speed_gbps, rx_lanes, tx_lanes;
  std::optional<std::string> security;  ///< host routers: the domain's `security` level ("user", "none")
  /// Host routers: the syspath of the PCI function the domain hangs below (the NHI), when it is a PCI one.
  /// Its position tells the host controller's PCIe switch, whose downstream ports carry the PCIe tunnels.
  std::optional<std::string> nhi;
  std::vector<Usb4PortInfo> usb4_ports;
};

using NodeData = std::variant<PciHopInfo, ControllerInfo, UsbDeviceInfo, PortInfo, InterfaceInfo,
                              ScsiDeviceInfo, BlockInfo, RouterInfo>;

/// The bundled vertex property. `kind` disambiguates UsbDeviceInfo (RootHub/Hub/Device).
struct Node {
  NodeKind kind = NodeKind::Device;
  NodeData data;

  const std::string& syspath() const;
  template <class T>
  const T& as() const {
    return std::get<T>(data);
  }
  template <class T>
  T& as() {
    return std::get<T>(data);
  }
  template <class T>
  const T* get_if() const {
    return std::get_if<T>(&data);
  }
};

/// The node's short name: the PCI address of PCI hops and controllers, H:C:T:L of SCSI devices, the kernel
/// name of everything else ("usb2", "2-1.4", "usb1-port3", "2-1.4:1.0", "sda").
std::string_view node_name(const Node& n);

std::string_view to_string(NodeKind k);
std::string_view to_string(HcdKind k);          ///< "uhci", "ohci", "ehci", "xhci", "usb4", "otg", "unknown"
std::string_view to_string(StorageProtocol p);  ///< "none", "bot", "uas", "other"

}  // namespace usbsat::topology
