#pragma once
/// Owning handles for libudev objects: one stateless deleter, unique_ptr aliases (STYLE G3).
/// The pointers stay one word wide and need no deleter argument at construction.
/// Borrowed devices (udev_device_get_parent*) are NOT wrapped: they live as long as their child.
#include <memory>

struct udev;
struct udev_enumerate;
struct udev_device;
struct udev_hwdb;
struct udev_monitor;

namespace usbsat::topology {

struct UdevDeleter {
  void operator()(udev* p) const noexcept;
  void operator()(udev_enumerate* p) const noexcept;
  void operator()(udev_device* p) const noexcept;
  void operator()(udev_hwdb* p) const noexcept;
  void operator()(udev_monitor* p) const noexcept;  ///< defined in udev_monitor.cpp
};

using UdevPtr = std::unique_ptr<udev, UdevDeleter>;
using UdevEnumeratePtr = std::unique_ptr<udev_enumerate, UdevDeleter>;
using UdevDevicePtr = std::unique_ptr<udev_device, UdevDeleter>;
using UdevHwdbPtr = std::unique_ptr<udev_hwdb, UdevDeleter>;
using UdevMonitorPtr = std::unique_ptr<udev_monitor, UdevDeleter>;

}  // namespace usbsat::topology
