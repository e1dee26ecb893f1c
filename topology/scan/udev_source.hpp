#pragma once
/// UdevSource: the Linux DeviceSource. Device names come from the udev hwdb through libudev; enumeration,
/// device records, attributes and links are plain POSIX calls on /sys paths (the bus/class link farms and
/// each device's `uevent`), which the umockdev preload redirects, so tests exercise exactly this code.
///
/// Why not udev_enumerate + udev_device for the records: libudev's sd_device resolves every path component
/// (openat/fstat/readlink per level) and walks parents eagerly, about a hundred system calls per device.
/// On the 18-controller benchmark fixture that made the scan 10x slower than `lsusb -t` (which reads sysfs
/// directly). enumerate_with_libudev() below keeps the libudev reading as the reference the umockdev tests
/// compare these records with.
#include <set>
#include <string>

#include "topology/base/string_map.hpp"
#include "topology/scan/device_source.hpp"
#include "topology/scan/read_limits.hpp"
#include "topology/scan/udev_handle.hpp"

namespace usbsat::topology {

class UdevSource final : public DeviceSource {
 public:
  /// Throws ScanError when libudev cannot be initialised or /sys is not readable.
  UdevSource();
  UdevSource(const UdevSource&) = delete;
  UdevSource& operator=(const UdevSource&) = delete;

  std::vector<RawDevice> enumerate(std::string_view subsystem) override;
  std::optional<RawDevice> device(std::string_view syspath) override;
  std::optional<std::string> attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> binary_attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> link_target(std::string_view syspath, std::string_view name) override;
  std::vector<std::string> list(std::string_view syspath, std::string_view name) override;
  std::vector<HwdbEntry> hwdb(std::string_view key) override;
  std::optional<std::string> read_text_file(std::string_view path) override;
  std::vector<Diagnostic> take_read_problems() override;

  /// Caps on what one read may return (topology/scan/read_limits.hpp says why these sizes).
  static constexpr std::size_t kMaxTextAttribute = read_limits::kTextAttribute;
  static constexpr std::size_t kMaxBinaryAttribute = read_limits::kBinaryAttribute;
  static constexpr std::size_t kMaxTextFile = read_limits::kTextFile;

 private:
  /// read_all() of `dir`/`name` with cap `cap`; a refused or failed read becomes a problem naming it.
  std::optional<std::string> read_checked(std::string_view dir, std::string_view name, std::size_t cap,
                                          bool sysfs = true);

  std::vector<Diagnostic> problems_;
  UdevPtr udev_;
  UdevHwdbPtr hwdb_;         ///< null when the hwdb is not installed: names stay empty
  StringSet known_devices_;  ///< directories seen to be devices (have `uevent`)
};

/// The reference: the same records read through udev_enumerate/udev_device (slow, used by tests to prove
/// UdevSource::enumerate returns what libudev would). Throws ScanError when libudev fails.
std::vector<RawDevice> enumerate_with_libudev(std::string_view subsystem);

}  // namespace usbsat::topology
