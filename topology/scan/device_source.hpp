#pragma once
/// DeviceSource: the one narrow seam between the operating system and the topology scan (STYLE G4).
/// The scan asks for raw records and attribute text; it never opens a file or calls libudev itself.
/// UdevSource (libudev + sysfs reads, redirected by umockdev in tests) is the Linux implementation;
/// FakeSource (tests/support) builds records in memory; a SetupAPI source could plug in on Windows.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/model/diagnostic.hpp"

namespace usbsat::topology {

/// One device as the platform enumerates it. Paths are absolute syspaths ("/sys/devices/...").
struct RawDevice {
  std::string syspath;
  std::string subsystem;  ///< "usb", "pci", "scsi", "block", "platform"; "" when the device has none
  std::string devtype;    ///< "usb_device", "usb_interface", "disk", "partition", "scsi_device", ...
  std::string sysname;    ///< last path component: "2-1.4", "0000:00:14.0", "sda"
  std::string driver;     ///< bound driver name ("uas", "xhci_hcd"), "" when unbound
  std::string devnode;    ///< "/dev/sda", "" when none
  std::optional<std::string> parent;  ///< syspath of the nearest ancestor device, if any
  /// The device's uevent properties (PRODUCT, TYPE, BUSNUM, DEVNUM, INTERFACE, ...), when the platform read
  /// them anyway; the scan uses them to skip attribute reads and falls back to attributes when absent.
  std::map<std::string, std::string, std::less<>> properties;

  /// The uevent property `key`, if the platform gave it.
  std::optional<std::string_view> property(std::string_view key) const {
    const auto it = properties.find(key);
    return it == properties.end() ? std::nullopt : std::optional<std::string_view>(it->second);
  }
};

/// One key/value property from the hardware database (udev hwdb on Linux).
struct HwdbEntry {
  std::string key, value;
};

class DeviceSource {
 public:
  virtual ~DeviceSource() = default;

  /// Every device of `subsystem` ("usb", "scsi", "block"), in a deterministic order (sorted by syspath).
  /// Throws ScanError when the platform cannot enumerate at all.
  virtual std::vector<RawDevice> enumerate(std::string_view subsystem) = 0;
  /// The record of one device, or nullopt when no device lives at `syspath`.
  virtual std::optional<RawDevice> device(std::string_view syspath) = 0;
  /// Text of attribute `name` (may contain '/': "physical_location/panel", "queue/max_sectors_kb") with one
  /// trailing newline removed; nullopt when absent or unreadable. Works for any directory below /sys, also
  /// for directories that are not devices (usb_port devices have no subsystem, /sys/module/...).
  virtual std::optional<std::string> attribute(std::string_view syspath, std::string_view name) = 0;
  /// Raw bytes of a binary attribute (`descriptors`, `bos_descriptors`); nullopt when absent.
  virtual std::optional<std::string> binary_attribute(std::string_view syspath, std::string_view name) = 0;
  /// The absolute, normalised target of symlink `name` below `syspath` (`peer`, `port`, `driver`,
  /// `subsystem`); nullopt when there is no such link.
  virtual std::optional<std::string> link_target(std::string_view syspath, std::string_view name) = 0;
  /// Entry names of directory `syspath`/`name` ("holders", "" for the device directory itself), sorted;
  /// empty when absent.
  virtual std::vector<std::string> list(std::string_view syspath, std::string_view name) = 0;
  /// Hardware-database properties for a modalias-style key ("pci:v00008086d00001E31",
  /// "usb:v0781p5583"); empty when unknown or when the platform has no database.
  virtual std::vector<HwdbEntry> hwdb(std::string_view key) = 0;
  /// Whole contents of a non-sysfs text file (mountinfo); nullopt when unreadable.
  virtual std::optional<std::string> read_text_file(std::string_view path) = 0;
  /// What could not be read since the last call, as warnings naming the file: an attribute that is not a
  /// regular file (a FIFO or /dev/zero linked in its place), larger than the source's cap, not permitted
  /// (a 0700 directory as non-root), a text file that could not be opened. Absent attributes are not
  /// problems. The scan moves these into its diagnostics.
  virtual std::vector<Diagnostic> take_read_problems() { return {}; }
};

}  // namespace usbsat::topology
