// The udev netlink monitor (hotplug events for `usbsat watch`); with udev_source.cpp the only files that
// include <libudev.h>.
#include "topology/scan/udev_monitor.hpp"

#include <libudev.h>

#include "topology/base/text.hpp"
#include "topology/model/errors.hpp"

namespace usbsat::topology {

void UdevDeleter::operator()(udev_monitor* p) const noexcept {
  udev_monitor_unref(p);
}

UdevMonitor::UdevMonitor() : udev_(udev_new()) {
  if (!udev_) throw ScanError("libudev: udev_new() failed");
  monitor_.reset(udev_monitor_new_from_netlink(udev_.get(), "udev"));
  if (!monitor_) throw ScanError("libudev: cannot open the udev event monitor (netlink)");
  if (udev_monitor_filter_add_match_subsystem_devtype(monitor_.get(), "block", "disk") < 0 ||
      udev_monitor_enable_receiving(monitor_.get()) < 0)
    throw ScanError("libudev: cannot start receiving udev events");
}

int UdevMonitor::fd() const {
  return udev_monitor_get_fd(monitor_.get());
}

std::optional<DeviceEvent> UdevMonitor::receive() {
  const UdevDevicePtr dev(udev_monitor_receive_device(monitor_.get()));
  if (!dev) return std::nullopt;
  DeviceEvent e{from_c_str(udev_device_get_action(dev.get())), from_c_str(udev_device_get_syspath(dev.get())),
                from_c_str(udev_device_get_sysname(dev.get())),
                from_c_str(udev_device_get_devnode(dev.get()))};
  if (e.action.empty() || e.sysname.empty()) return std::nullopt;
  return e;
}

}  // namespace usbsat::topology
