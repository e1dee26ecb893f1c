#pragma once
/// UdevSource: the Linux DeviceSource. Enumeration, device records and the hwdb go through libudev;
/// attribute and link reads are plain POSIX calls on /sys paths. Both are redirected by the umockdev
/// preload, so tests exercise exactly this code over fixture trees.
#include "topology/device_source.hpp"
#include "topology/udev_handle.hpp"

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

 private:
  UdevPtr udev_;
  UdevHwdbPtr hwdb_;  ///< null when the hwdb is not installed: names stay empty
};

}  // namespace usbsat::topology
