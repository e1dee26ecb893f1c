#pragma once
/// The field list of each WindowsSnapshot struct, in one place: fields(visitor, object) calls
/// visitor("key", member) for every member, in the JSON form's order (the key is the member's name). The
/// JSON reader and writer (snapshot_json.cpp) and the sanitiser (safe_snapshot.cpp) walk the snapshot with
/// it, so a member added here is read, written and sanitised alike.
#include <optional>
#include <type_traits>
#include <vector>

#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows::snapshot_fields {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, PcieLinkProps> {
  v("current_speed", p.current_speed);
  v("current_width", p.current_width);
  v("max_speed", p.max_speed);
  v("max_width", p.max_width);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, PciFunction> {
  v("instance_id", p.instance_id);
  v("hardware_ids", p.hardware_ids);
  v("compatible_ids", p.compatible_ids);
  v("location_info", p.location_info);
  v("location_path", p.location_path);
  v("service", p.service);
  v("description", p.description);
  v("manufacturer", p.manufacturer);
  v("link", p.link);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbProtocols> {
  v("usb110", p.usb110);
  v("usb200", p.usb200);
  v("usb300", p.usb300);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbPort> {
  v("number", p.number);
  v("connection_status", p.connection_status);
  v("speed", p.speed);
  v("protocols", p.protocols);
  v("operating_at_super_speed_or_higher", p.operating_at_super_speed_or_higher);
  v("super_speed_capable_or_higher", p.super_speed_capable_or_higher);
  v("operating_at_super_speed_plus_or_higher", p.operating_at_super_speed_plus_or_higher);
  v("super_speed_plus_capable_or_higher", p.super_speed_plus_capable_or_higher);
  v("companion_index", p.companion_index);
  v("companion_port", p.companion_port);
  v("companion_hub", p.companion_hub);
  v("user_connectable", p.user_connectable);
  v("debug_capable", p.debug_capable);
  v("type_c", p.type_c);
  v("device", p.device);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbHub> {
  v("symbolic_link", p.symbolic_link);
  v("hub_type", p.hub_type);
  v("number_of_ports", p.number_of_ports);
  v("ports", p.ports);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbFunction> {
  v("interface_number", p.interface_number);
  v("instance_id", p.instance_id);
  v("service", p.service);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbDevice> {
  v("instance_id", p.instance_id);
  v("service", p.service);
  v("description", p.description);
  v("location_info", p.location_info);
  v("location_path", p.location_path);
  v("device_descriptor", p.device_descriptor);
  v("configuration_descriptor", p.configuration_descriptor);
  v("bos_descriptor", p.bos_descriptor);
  v("manufacturer", p.manufacturer);
  v("product", p.product);
  v("serial", p.serial);
  v("current_configuration", p.current_configuration);
  v("functions", p.functions);
  v("hub", p.hub);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, HostController> {
  v("pci", p.pci);
  v("upstream", p.upstream);
  v("root_hub_instance_id", p.root_hub_instance_id);
  v("root_hub", p.root_hub);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, Volume> {
  v("name", p.name);
  v("mount_points", p.mount_points);
  v("size_bytes", p.size_bytes);
  v("filesystem", p.filesystem);
  v("partition_number", p.partition_number);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, ScsiAddress> {
  v("port", p.port);
  v("path", p.path);
  v("target", p.target);
  v("lun", p.lun);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, Disk> {
  v("device_number", p.device_number);
  v("instance_id", p.instance_id);
  v("ancestors", p.ancestors);
  v("bus_type", p.bus_type);
  v("vendor", p.vendor);
  v("product", p.product);
  v("revision", p.revision);
  v("serial", p.serial);
  v("size_bytes", p.size_bytes);
  v("removable", p.removable);
  v("incurs_seek_penalty", p.incurs_seek_penalty);
  v("read_only", p.read_only);
  v("system_disk", p.system_disk);
  v("boot_disk", p.boot_disk);
  v("scsi_address", p.scsi_address);
  v("logical_sector_bytes", p.logical_sector_bytes);
  v("physical_sector_bytes", p.physical_sector_bytes);
  v("max_transfer_bytes", p.max_transfer_bytes);
  v("volumes", p.volumes);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, WindowsSnapshot> {
  v("os_version", p.os_version);
  v("controllers", p.controllers);
  v("disks", p.disks);
}

}  // namespace usbsat::topology::windows::snapshot_fields
