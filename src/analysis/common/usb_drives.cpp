#include "src/analysis/common/usb_drives.hpp"

namespace usbsat::analysis::common {

std::vector<UsbDrive> usb_drives(const topology::Topology& t) {
  std::vector<UsbDrive> out;
  for (topology::Vertex b : topology::block_devices(t)) {
    const auto& bi = t[b].as<topology::BlockInfo>();
    if (!bi.usb) continue;
    const auto dev = topology::usb_device_of(t, b);
    if (!dev) continue;  // a USB transport without a USB device above it: nothing to place or share
    out.push_back({b, *dev, bi.name, bi.devnode, !(bi.size_bytes && *bi.size_bytes == 0)});
  }
  return out;
}

std::vector<UsbDrive> usb_drives_with_media(const topology::Topology& t) {
  auto all = usb_drives(t);
  std::erase_if(all, [](const UsbDrive& d) { return !d.has_media; });
  return all;
}

}  // namespace usbsat::analysis::common
