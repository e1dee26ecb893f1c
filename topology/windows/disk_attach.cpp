// The disks of a WindowsSnapshot into the model, each below the USB device or function among its PnP
// ancestors (disk_attach.hpp).
#include "topology/windows/disk_attach.hpp"

#include <cctype>

#include "topology/base/text.hpp"
#include "topology/windows/parse.hpp"

namespace usbsat::topology::windows {

std::string key_of(std::string_view id) {
  if (id.starts_with("\\\\?\\") || id.starts_with("\\\\.\\")) id.remove_prefix(4);
  std::string k(id);
  for (auto& c : k) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return k;
}

std::optional<std::string> trimmed(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  return std::string(trim(*s));
}

void attach_disk(TopologyBuilder& builder, const UsbPlaces& usb, const Disk& disk,
                 std::vector<Diagnostic>& diagnostics) {
  const std::string name = "PhysicalDrive" + std::to_string(disk.device_number);
  std::optional<UsbPlace> place;
  for (const auto& a : disk.ancestors)
    if (auto it = usb.by_instance.find(key_of(a)); it != usb.by_instance.end()) {
      place = it->second;
      break;
    }
  std::optional<std::string> up;
  BlockInfo b;
  b.name = name;
  b.devnode = "\\\\.\\" + name;
  b.transport = transport_from_bus_type(disk.bus_type);
  if (disk.scsi_address) {
    const auto& a = *disk.scsi_address;
    b.hctl = std::to_string(a.port) + ":" + std::to_string(a.path) + ":" + std::to_string(a.target) + ":" +
             std::to_string(a.lun);
  }
  if (place) {
    b.usb = true;
    b.transport = "usb";
    // The interface: the function's own, else the device's storage interface, else its first.
    static const std::vector<std::pair<unsigned, std::string>> kNone;
    const auto found = usb.interfaces.find(place->device);
    const auto& ifs = found == usb.interfaces.end() ? kNone : found->second;
    std::optional<std::string> intf;
    for (const auto& [n, sp] : ifs)
      if (place->interface && n == *place->interface) intf = sp;
    for (const auto& [n, sp] : ifs)
      if (!intf && !place->interface && builder.get(sp)->as<InterfaceInfo>().storage != StorageProtocol::None)
        intf = sp;
    if (!intf && !ifs.empty()) intf = ifs.front().second;
    up = intf ? *intf : place->device;
    if (b.hctl && intf) {
      const std::string scsi = *intf + "/" + *b.hctl;
      ScsiDeviceInfo s;
      s.syspath = scsi;
      s.hctl = *b.hctl;
      s.host = "port" + std::to_string(disk.scsi_address->port);
      s.vendor = trimmed(disk.vendor);
      s.model = trimmed(disk.product);
      s.rev = trimmed(disk.revision);
      s.type = 0;
      if (builder.add(Node{NodeKind::ScsiDevice, std::move(s)}, *intf)) up = scsi;
    }
    if (const auto* dev = builder.get(place->device)) b.serial = dev->as<UsbDeviceInfo>().serial;
  } else if (disk.bus_type == kBusTypeUsb) {
    diagnostics.push_back({Severity::Warning, disk.instance_id.value_or(name),
                           name +
                               " is a USB disk but none of its ancestors is a USB device in the snapshot; it "
                               "is shown on its own"});
  }
  b.syspath = (up ? *up : std::string("/windows/disk")) + "/" + name;
  b.vendor = trimmed(disk.vendor);
  b.model = trimmed(disk.product);
  if (!b.serial) b.serial = trimmed(disk.serial);
  b.size_bytes = disk.size_bytes;
  b.removable = disk.removable;
  b.read_only = disk.read_only;
  if (disk.incurs_seek_penalty) b.rotational = *disk.incurs_seek_penalty;
  b.logical_block_size = disk.logical_sector_bytes;
  b.physical_block_size = disk.physical_sector_bytes;
  if (disk.max_transfer_bytes) b.max_hw_sectors_kb = *disk.max_transfer_bytes / 1024;
  for (std::size_t i = 0; i < disk.volumes.size(); ++i) {
    const auto& v = disk.volumes[i];
    Partition p;
    p.name = name + (v.partition_number ? "-part" + std::to_string(*v.partition_number)
                                        : "-vol" + std::to_string(i + 1));
    p.size_bytes = v.size_bytes;
    p.mountpoints = v.mount_points;
    b.partitions.push_back(std::move(p));
  }
  if (!builder.add(Node{NodeKind::Block, std::move(b)}, up))
    diagnostics.push_back({Severity::Warning, name, "disk listed twice; the second entry is ignored"});
}

}  // namespace usbsat::topology::windows
