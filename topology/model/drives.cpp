#include "topology/model/drives.hpp"

namespace usbsat::topology {

DriveSummary summarize_drive(const Topology& t, Vertex block) {
  const auto& b = t[block].as<BlockInfo>();
  DriveSummary d;
  d.block = block;
  d.dev = b.name;
  d.devnode = b.devnode;
  d.usb = b.usb;
  d.transport = b.transport.empty() ? (b.usb ? "usb" : "unknown") : b.transport;
  d.max_sectors_kb = b.max_sectors_kb;
  d.max_hw_sectors_kb = b.max_hw_sectors_kb;
  d.nr_requests = b.nr_requests;
  d.vendor = b.vendor;
  d.model = b.model;
  d.serial = b.serial;
  d.size_bytes = b.size_bytes;
  d.rotational = b.rotational;
  d.removable = b.removable;
  d.mountpoints = b.mountpoints;
  d.hctl = b.hctl;  // the scanner records the LUN of USB and non-USB (SATA) disks alike
  d.queue_depth = b.queue_depth;
  for (const auto& p : b.partitions)
    d.mountpoints.insert(d.mountpoints.end(), p.mountpoints.begin(), p.mountpoints.end());

  if (auto scsi = nearest(t, block, NodeKind::ScsiDevice)) {
    const auto& s = t[*scsi].as<ScsiDeviceInfo>();
    d.scsi = scsi;
    if (!d.hctl) d.hctl = s.hctl;
    if (!d.queue_depth) d.queue_depth = s.queue_depth;
    if (!d.vendor) d.vendor = s.vendor;
    if (!d.model) d.model = s.model;
  }
  if (!d.usb) return d;

  d.interface = nearest(t, block, NodeKind::Interface);
  if (d.interface) {
    const auto& i = t[*d.interface].as<InterfaceInfo>();
    d.protocol = i.storage;
    d.uas_capable = i.uas_capable;
    d.uas_blocked_reason = i.uas_blocked_reason;
    if (!i.driver.empty()) d.driver = i.driver;
  }
  d.usb_device = usb_device_of(t, block);
  if (d.usb_device) {
    const auto& u = t[*d.usb_device].as<UsbDeviceInfo>();
    d.port_path = u.name;
    d.speed = u.speed;
    d.capable_speed = u.capable_speed;
    d.capable_from_bos = u.capable_from_bos;
    if (u.vendor_id && u.product_id) d.vid_pid = format_vid_pid(*u.vendor_id, *u.product_id);
    std::string name = u.manufacturer.value_or("");
    if (u.product) name += (name.empty() ? "" : " ") + *u.product;
    if (!name.empty()) d.usb_name = name;
    if (!d.model && u.product) d.model = u.product;
    for (Vertex h : hub_chain(t, *d.usb_device)) d.hub_chain.push_back(t[h].as<UsbDeviceInfo>().name);
    if (auto port = parent(t, *d.usb_device); port && t[*port].kind == NodeKind::Port)
      if (auto ci = connector_of(t, *port)) d.connector = summarize_connector(t, *ci);
  }
  if (auto c = controller_of(t, block)) {
    d.controller = summarize_controller(t, *c);
    d.pcie_uplink = summarize_pcie_uplink(t, *c);
  }
  return d;
}

std::vector<DriveSummary> summarize_drives(const Topology& t) {
  std::vector<DriveSummary> out;
  for (Vertex b : block_devices(t)) out.push_back(summarize_drive(t, b));
  return out;
}

}  // namespace usbsat::topology
