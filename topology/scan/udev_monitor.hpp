#pragma once
/// UdevMonitor: hotplug events of whole disks ("block"/"disk") from the udev netlink monitor, for
/// `usbsat watch`. No polling: the caller poll()s fd() and calls receive() when it is readable. Under
/// umockdev the preload turns the netlink socket into one the testbed's umockdev_testbed_uevent() writes to.
#include <optional>
#include <string>

#include "topology/scan/udev_handle.hpp"

namespace usbsat::topology {

/// What a hotplug event says, as udev reports it.
struct DeviceEvent {
  std::string action;   ///< "add", "remove", "change", "bind", ...
  std::string syspath;  ///< "/sys/devices/.../block/sdb"
  std::string sysname;  ///< "sdb"
  std::string devnode;  ///< "/dev/sdb", "" when unknown
  bool operator==(const DeviceEvent&) const = default;
};

class UdevMonitor {
 public:
  /// Listen to udev's processed events for whole disks. Throws ScanError when libudev cannot open the
  /// monitor (no netlink socket).
  UdevMonitor();
  /// The descriptor to poll for POLLIN.
  int fd() const;
  /// The next queued event; nullopt when none is queued (the socket is non-blocking) or it was malformed.
  std::optional<DeviceEvent> receive();

 private:
  UdevPtr udev_;
  UdevMonitorPtr monitor_;
};

}  // namespace usbsat::topology
