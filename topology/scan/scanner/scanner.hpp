#pragma once
/// Scanner: the state of one scan and the steps that fill it (internal to topology/; the public entry is
/// topology/scan/scan.hpp). Each step lives in the file named after what it reads:
///   scanner.cpp     the order of the steps, diagnostics, the record cache
///   hwdb_names.cpp  vendor/model names from the hardware database
///   pci.cpp         PCI hops and host controllers (with EHCI companions)
///   usb_devices.cpp root hubs, hubs and devices (descriptors, capable speed, the port each sits in)
///   ports.cpp       hub ports (usb_port directories, synthesized on old kernels)
///   interfaces.cpp  USB interfaces, the storage protocol, why UAS is not used
///   scsi_block.cpp  SCSI devices, disks and partitions, the transport of non-USB disks
///   thunderbolt.cpp USB4/Thunderbolt routers, their links, USB4 ports (joined to USB ports and DRM
///                   connectors by Type-C connector)
///   modules.cpp     driver module facts (usb-storage quirks, uas loaded) for ScanResult::host
///   mounts.cpp      mount points from mountinfo
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "topology/base/mountinfo.hpp"
#include "topology/base/string_map.hpp"
#include "topology/model/builder.hpp"
#include "topology/model/sysfs_parse.hpp"
#include "topology/scan/descriptors.hpp"
#include "topology/scan/device_source.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::topology::scanner {

class AttrDir;

/// A decimal that fits an unsigned ("30", " 4"); garbage or more than 32 bits -> nullopt.
std::optional<unsigned> to_unsigned(std::string_view s);

/// A hub port to add once all devices are known: seen in sysfs or derived from a hub's maxchild.
struct PortSeed {
  std::string hub_syspath, hub_name;
  unsigned number = 0;
  std::string syspath;
  bool authoritative = false;  ///< seen in sysfs (directory entry or a device's `port` link), not derived
};

class Scanner {
 public:
  Scanner(DeviceSource& src, const ScanConfig& cfg) : src_(src), cfg_(cfg) {}
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  /// Run every step once; the scanner is spent afterwards.
  ScanResult run();

 private:
  /// Whether attributes that only the Full detail reads are wanted (ScanConfig::detail).
  bool full() const { return cfg_.detail == ScanDetail::Full; }
  /// Whether attributes that `drives --json` prints are wanted (the Drives and Full details).
  bool drive_fields() const { return cfg_.detail != ScanDetail::Tree; }
  /// The Drives detail: a USB device's `serial` and its ports' `location` are read only for the devices
  /// that hold a disk (read_drive_holder), once the disks are known.
  bool drive_holders_only() const { return cfg_.detail == ScanDetail::Drives; }

  // ---- scanner.cpp: diagnostics and the record cache ----
  /// Run `f`; an exception from it becomes an error diagnostic at `where` and the scan goes on.
  template <class F>
  void guarded(const std::string& where, F f) {
    try {
      f();
    } catch (const std::exception& e) {
      diags_.push_back({Severity::Error, where, std::string("could not be scanned: ") + e.what()});
    }
  }
  void warn(std::string where, std::string message);
  void info(std::string where, std::string message);
  /// A present attribute whose value cannot be used: a warning naming the attribute and what it said
  /// (or that it could not be read); the value stays unknown.
  void unusable(const std::string& where, std::string_view attribute, const std::optional<std::string>& text,
                std::string_view consequence);
  /// Move the source's read problems (refused, oversized or unpermitted reads) into the diagnostics.
  void collect_read_problems();
  /// The device record at `syspath`, read once.
  const std::optional<RawDevice>& record(const std::string& syspath);

  // ---- hwdb_names.cpp ----
  std::pair<std::string, std::string> hwdb_names(const std::string& key);
  std::pair<std::string, std::string> pci_names(std::optional<std::uint16_t> vendor,
                                                std::optional<std::uint16_t> device);
  std::pair<std::string, std::string> usb_names(std::uint16_t vendor, std::uint16_t product);

  // ---- pci.cpp ----
  std::optional<std::string> ensure_pci_hop(const std::optional<std::string>& syspath);
  void ensure_controller(const std::string& syspath, const std::string& root_hub);
  void report_missing_ids(const ControllerInfo& c);
  std::optional<std::string> soc_controller(ControllerInfo& c, const RawDevice& rec);
  std::optional<std::string> soc_carrier(const std::string& fullname, const RawDevice& bridge);
  void assign_companions();
  struct PciIds {
    std::optional<std::uint16_t> vendor, device, subsystem_vendor, subsystem_device;
    std::optional<std::uint32_t> class_code;
  };
  PciIds read_pci_ids(const RawDevice& rec, const AttrDir& a, bool subsystem);
  PcieLink read_pcie_link(const AttrDir& a);
  void check_pci_path(const std::string& syspath);

  // ---- usb_devices.cpp ----
  void add_usb_device(const RawDevice& r);
  /// The steps of add_usb_device, in its order: ids (uevent first), attributes, hub attributes (returns the
  /// active configuration), the interfaces listed in the directory, descriptors, the port it is plugged into.
  UsbDeviceInfo read_usb_ids(const RawDevice& r, const AttrDir& a, const UsbName& name);
  void read_usb_attributes(UsbDeviceInfo& d, const AttrDir& a);
  std::optional<unsigned> read_hub_attributes(UsbDeviceInfo& d, const AttrDir& a);
  void list_interfaces(const UsbDeviceInfo& d, const AttrDir& a);
  UsbDescriptors read_usb_descriptors(UsbDeviceInfo& d, const AttrDir& a);
  std::string seed_upstream_port(const UsbDeviceInfo& d, const AttrDir& a);
  std::optional<unsigned> hub_config(const std::string& hub_syspath);
  /// The Drives detail's deferred reads for the USB device at `syspath`, which holds a disk: its string
  /// descriptors, and the attributes of the connector it is plugged into (read_connector_sides).
  void read_drive_holder(const std::string& syspath);
  /// Drives detail: `connect_type`, `location` and `physical_location` of the sides of the connector port
  /// `at` belongs to (itself, its peer and the ports that name it their peer), the USB2 side first.
  void read_connector_sides(const std::string& at);

  // ---- ports.cpp ----
  std::string seed_port(PortSeed seed);
  void add_port(std::string syspath, const PortSeed& seed);
  /// The `physical_location` group of port directory `a`, read where its `panel` is: the kernel shows its
  /// five attributes together or not at all (drivers/base/physical_location.c), so one try tells.
  static std::optional<PhysicalLocation> read_physical_location(const AttrDir& a);
  /// Drop `peer` links that point at the port itself or at no scanned port, with a warning each.
  void check_peers();

  // ---- interfaces.cpp ----
  void add_interface(const RawDevice& r);
  const std::vector<StorageQuirk>& storage_quirks();
  /// /sys/module/usb_storage/parameters/quirks, read once per scan (the interfaces and the host facts use
  /// it).
  const std::optional<std::string>& storage_quirks_text();
  std::optional<std::string> uas_blocked_reason(const std::string& dev);

  // ---- scsi_block.cpp ----
  std::optional<std::pair<std::string, NodeKind>> nearest_scanned(std::string_view syspath);
  const UsbDeviceInfo* nearest_usb_device(std::string_view syspath);
  void add_scsi_device(const std::string& syspath);
  /// The driver of SCSI host ".../host6" (`scsi_host/host6/proc_name`), read once per host (a multi-LUN
  /// reader has several SCSI devices on one host).
  const std::optional<std::string>& host_proc_name(std::string_view host_syspath);
  void add_disk(const RawDevice& r);
  void add_partition(const RawDevice& r);
  std::string transport_from_pci_class(std::string_view syspath, std::string fallback);
  /// The controller of an NVMe multipath namespace (".../nvme-subsystem/nvme-subsys0/nvme0n1"): the first
  /// path controller ("nvme0") the subsystem links to.
  std::optional<std::string> nvme_path_controller(std::string_view namespace_syspath);
  /// `size` in 512-byte sectors -> bytes; a count whose byte size is implausible stays unknown, reported.
  std::optional<std::uint64_t> size_bytes(const AttrDir& a);
  /// A SCSI `queue_depth`; an implausible one (4294967295 is -1 printed unsigned) stays unknown, reported.
  std::optional<unsigned> queue_depth(const std::string& scsi_syspath, std::optional<std::string> text);

  // ---- thunderbolt.cpp ----
  /// Every router of the thunderbolt bus, parents first; nothing more is read when the bus is empty.
  void add_thunderbolt();
  void add_router(const RawDevice& r, const RouterAddress& address, const std::optional<std::string>& up);
  std::vector<Usb4PortInfo> usb4_ports(const AttrDir& router);
  void join_usb4_ports();
  bool connector_usable(const std::string& port, const std::string& connector);
  void join_displays(const std::vector<Usb4PortInfo*>& wanted);
  /// The `removable` mark of the PCI hops behind each host router's Thunderbolt controller (tb3_tunnel.hpp).
  void read_tunnel_marks();

  // ---- modules.cpp ----
  HostFacts host_facts();
  // ---- mounts.cpp ----
  void load_mountinfo();
  /// Line `line_number` of mountinfo `text` does not parse: a caller-named file stops the scan (ScanError),
  /// the system's own gets a warning naming the line.
  void malformed_mountinfo(std::string_view text, std::size_t line_number);
  std::vector<std::string> mounts_of(const std::optional<std::string>& devnum) const;

  DeviceSource& src_;
  const ScanConfig& cfg_;
  TopologyBuilder builder_;
  std::vector<Diagnostic> diags_;
  std::map<std::string, std::optional<RawDevice>, std::less<>> records_;
  StringMap<std::pair<std::string, std::string>> names_;
  std::map<std::pair<std::string, unsigned>, PortSeed> ports_;
  StringMap<UsbDescriptors> descriptors_;
  StringMap<std::pair<std::optional<std::uint16_t>, std::optional<std::uint16_t>>> device_ids_;
  std::vector<std::string> controllers_;
  /// Every PCI function, enumerated once and only for a SoC controller that a PCI function carries
  /// (soc_carrier).
  std::optional<std::vector<RawDevice>> pci_functions_;
  std::vector<std::string> routers_;  ///< syspaths of the routers added, parents first
  std::vector<std::string> listed_interfaces_;
  std::vector<std::string> peered_ports_;  ///< ports that have a `peer` link, checked once all are added
  /// Drives detail: devices whose string descriptors (`manufacturer`, `product`, `serial`) are listed but
  /// not read yet, ports whose `connect_type`, `location` and `physical_location` are not read yet (with
  /// which of them their listing holds; all, where the port's directory was not listed), and the port (hub
  /// syspath, number) each device is plugged into.
  struct UnreadStrings {
    bool manufacturer = false, product = false, serial = false;
  };
  StringMap<UnreadStrings> unread_strings_;
  struct UnreadPort {
    bool connect_type = false, location = false, physical_location = false;
  };
  StringMap<UnreadPort> unread_ports_;
  StringMap<std::pair<std::string, unsigned>> device_ports_;
  StringMap<std::vector<std::string>> peered_by_;  ///< port -> ports whose peer it is
  StringSet missing_pci_;                          ///< PCI functions already reported missing
  StringSet reported_problems_;                    ///< read problems already collected (where + message)
  std::optional<std::vector<StorageQuirk>> quirks_;
  std::optional<std::optional<std::string>> quirks_text_;
  StringMap<std::optional<std::string>> host_proc_names_;
  std::map<DevNum, std::vector<std::string>>
      mounts_;  ///< mount points per device number, in mountinfo's order
};

}  // namespace usbsat::topology::scanner
