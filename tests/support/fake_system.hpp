#pragma once
/// One in-memory system as a DeviceSource answers it, for the scan's unit tests
/// (tests/topology/scan_test.cpp) and the whole-scan fuzzer (tests/fuzz/fuzz_scan.cpp): an ASMedia xHCI
/// behind a root port, two root hubs with peered ports, a quirked UAS enclosure with a mounted partition, a
/// USB3 stick in the USB2 half, an EHCI with a UHCI companion, an NVMe disk and a loop device.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "tests/support/fake_source.hpp"

namespace usbsat::testing::fake {

/// Whether `diags` holds one at `where` whose message contains `says` (the scan's bad-input tables).
inline bool has_diagnostic(const std::vector<topology::Diagnostic>& diags, const std::string& where,
                           const std::string& says) {
  for (const auto& d : diags)
    if (d.where == where && d.message.find(says) != std::string::npos) return true;
  return false;
}
/// Every diagnostic, one a line ("where: message"), for a failed check's message.
inline std::string diagnostics_text(const std::vector<topology::Diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) out += d.where + ": " + d.message + "\n";
  return out;
}

inline const std::string kRoot = "/sys/devices/pci0000:00";
inline const std::string kRp = kRoot + "/0000:00:1c.0";
inline const std::string kXhci = kRp + "/0000:03:00.0";
inline const std::string kEhci = kRoot + "/0000:00:1d.7";
inline const std::string kUhci = kRoot + "/0000:00:1d.0";

inline std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}
/// Device + config descriptors with one interface: alt 0 = 08/06/50, alt 1 (optional) = 08/06/62.
inline std::string storage_descriptors(std::uint16_t bcd, bool with_uas) {
  std::string s = bytes({18, 1, bcd & 0xff, bcd >> 8, 0, 0, 0, 9, 0x4c, 0x17, 0xaa, 0x55, 0, 1, 1, 2, 3, 1});
  std::string body = bytes({9, 4, 0, 0, 2, 8, 6, 0x50, 0});
  if (with_uas) body += bytes({9, 4, 0, 1, 4, 8, 6, 0x62, 0});
  const int total = static_cast<int>(9 + body.size());
  return s + bytes({9, 2, total, 0, 1, 1, 0, 0x80, 112}) + body;
}

inline void usb_device(FakeSource& f, const std::string& syspath, std::map<std::string, std::string> attrs,
                       const std::string& driver = "usb") {
  f.device({.syspath = syspath, .subsystem = "usb", .devtype = "usb_device", .driver = driver},
           std::move(attrs));
}
inline void usb_interface(FakeSource& f, const std::string& syspath, const std::string& driver,
                          std::map<std::string, std::string> attrs) {
  f.device({.syspath = syspath, .subsystem = "usb", .devtype = "usb_interface", .driver = driver},
           std::move(attrs));
}

/// The system. An ASMedia xHCI behind a root port, two root hubs with peered ports; a quirked UAS enclosure
/// on the USB3 side; a USB3 stick in the USB2 half; an EHCI with a UHCI companion; an NVMe disk; a loop
/// device.
inline FakeSource system() {
  FakeSource f;
  f.device({.syspath = kRp, .subsystem = "pci", .driver = "pcieport"},
           {{"vendor", "0x8086"},
            {"device", "0x9d10"},
            {"class", "0x060400"},
            {"current_link_speed", "8.0 GT/s PCIe"},
            {"current_link_width", "1"},
            {"max_link_speed", "8 GT/s"},
            {"max_link_width", "4"}});
  f.device({.syspath = kXhci, .subsystem = "pci", .driver = "xhci_hcd", .parent = kRp},
           {{"vendor", "0x1b21"},
            {"device", "0x1042"},
            {"subsystem_vendor", "0x1043"},
            {"subsystem_device", "0x8488"},
            {"class", "0x0c0330"},
            {"current_link_speed", "5.0 GT/s PCIe"},
            {"current_link_width", "1"},
            {"max_link_speed", "5.0 GT/s PCIe"},
            {"max_link_width", "1"}});
  f.hwdb_entry("pci:v00001B21d00001042", "ID_VENDOR_FROM_DATABASE", "ASMedia Technology Inc.");
  f.hwdb_entry("pci:v00001B21d00001042", "ID_MODEL_FROM_DATABASE", "ASM1042 SuperSpeed USB Host Controller");
  f.hwdb_entry("usb:v174C", "ID_VENDOR_FROM_DATABASE", "ASMedia Technology Inc.");

  usb_device(f, kXhci + "/usb1",
             {{"busnum", "1"},
              {"devnum", "1"},
              {"speed", "480"},
              {"version", " 2.00"},
              {"maxchild", "2"},
              {"bDeviceClass", "09"},
              {"idVendor", "1d6b"},
              {"idProduct", "0002"}});
  usb_device(f, kXhci + "/usb2",
             {{"busnum", "2"},
              {"devnum", "1"},
              {"speed", "5000"},
              {"version", " 3.00"},
              {"maxchild", "2"},
              {"bDeviceClass", "09"},
              {"idVendor", "1d6b"},
              {"idProduct", "0003"}});
  for (int bus : {1, 2})
    for (int port : {1, 2}) {
      const std::string dir = kXhci + "/usb" + std::to_string(bus) + "/" + std::to_string(bus) +
                              "-0:1.0/usb" + std::to_string(bus) + "-port" + std::to_string(port);
      const std::string other = kXhci + "/usb" + std::to_string(3 - bus) + "/" + std::to_string(3 - bus) +
                                "-0:1.0/usb" + std::to_string(3 - bus) + "-port" + std::to_string(port);
      f.dir(dir, {{"connect_type", "hotplug"},
                  {"location", "0x0000000" + std::to_string(port)},
                  {"over_current_count", "0"},
                  {"quirks", "0x0"},
                  {"state", "not attached"},
                  {"physical_location/panel", "back"},
                  {"physical_location/dock", "no"}});
      f.link(dir, "peer", other);
    }
  // 2-1: ASMedia enclosure, UAS alt setting, bound to usb-storage by the 'u' quirk.
  const std::string enc = kXhci + "/usb2/2-1";
  usb_device(f, enc,
             {{"busnum", "2"},
              {"devnum", "2"},
              {"speed", "5000"},
              {"version", " 3.10"},
              {"idVendor", "174c"},
              {"idProduct", "55aa"},
              {"bDeviceClass", "00"},
              {"bMaxPower", "896mA"},
              {"rx_lanes", "1"},
              {"bConfigurationValue", "1"},
              {"serial", "ENC123"},
              {"power/control", "on"}});
  f.binary(enc, "descriptors", storage_descriptors(0x0310, true));
  f.link(enc, "port", kXhci + "/usb2/2-0:1.0/usb2-port1");
  usb_interface(f, enc + "/2-1:1.0", "usb-storage",
                {{"bInterfaceNumber", "00"},
                 {"bInterfaceClass", "08"},
                 {"bInterfaceSubClass", "06"},
                 {"bInterfaceProtocol", "50"},
                 {"bAlternateSetting", " 0"},
                 {"bNumEndpoints", "02"}});
  const std::string lun = enc + "/2-1:1.0/host6/target6:0:0/6:0:0:0";
  f.device({.syspath = lun, .subsystem = "scsi", .devtype = "scsi_device", .driver = "sd"},
           {{"vendor", "ASMT    "}, {"model", "2115            "}, {"queue_depth", "1"}, {"type", "0"}});
  f.dir(enc + "/2-1:1.0/host6/scsi_host/host6", {{"proc_name", "usb-storage"}});
  f.device({.syspath = lun + "/block/sdb", .subsystem = "block", .devtype = "disk", .devnode = "/dev/sdb"},
           {{"dev", "8:16"},
            {"size", "1000"},
            {"removable", "0"},
            {"ro", "0"},
            {"queue/max_sectors_kb", "240"},
            {"queue/max_hw_sectors_kb", "32767"},
            {"queue/nr_requests", "2"},
            {"queue/rotational", "1"},
            {"queue/logical_block_size", "512"},
            {"queue/physical_block_size", "4096"}});
  f.device({.syspath = lun + "/block/sdb/sdb1",
            .subsystem = "block",
            .devtype = "partition",
            .parent = lun + "/block/sdb"},
           {{"dev", "8:17"}, {"size", "900"}});
  f.dir("/sys/module/usb_storage/parameters", {{"quirks", "174c:55aa:u"}});
  f.text_file("/mi", "40 22 8:17 / /media/back\\040up rw - ext4 /dev/sdb1 rw\n");

  // 1-2: a USB 3.0 stick (bcdUSB 3.00) in the USB2 half: runs at 480, capable 5000. No `port` link.
  usb_device(f, kXhci + "/usb1/1-2",
             {{"busnum", "1"},
              {"devnum", "3"},
              {"speed", "480"},
              {"version", " 3.00"},
              {"idVendor", "0781"},
              {"idProduct", "5591"},
              {"bDeviceClass", "00"}});

  // EHCI with a UHCI companion in the same slot; no port directories (old kernel).
  f.device({.syspath = kEhci, .subsystem = "pci", .driver = "ehci-pci"},
           {{"class", "0x0c0320"}, {"vendor", "0x8086"}});
  f.device({.syspath = kUhci, .subsystem = "pci", .driver = "uhci_hcd"},
           {{"class", "0x0c0300"}, {"vendor", "0x8086"}});
  usb_device(f, kEhci + "/usb3",
             {{"busnum", "3"}, {"speed", "480"}, {"maxchild", "3"}, {"bDeviceClass", "09"}});
  usb_device(f, kUhci + "/usb4",
             {{"busnum", "4"}, {"speed", "12"}, {"maxchild", "2"}, {"bDeviceClass", "09"}});

  // Non-USB disks.
  f.device({.syspath = kRoot + "/0000:00:1d.4/0000:3c:00.0/nvme/nvme0/nvme0n1",
            .subsystem = "block",
            .devtype = "disk",
            .devnode = "/dev/nvme0n1"},
           {{"size", "2000"}, {"dev", "259:0"}});
  f.device({.syspath = "/sys/devices/virtual/block/loop0", .subsystem = "block", .devtype = "disk"},
           {{"size", "8"}});
  return f;
}

}  // namespace usbsat::testing::fake
