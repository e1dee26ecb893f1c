#include <doctest/doctest.h>

#include <algorithm>

#include "tests/support/machines.hpp"
#include "topology/model/drives.hpp"

using namespace usbsat::topology;

namespace {
const DriveSummary& by_dev(const std::vector<DriveSummary>& ds, std::string_view dev) {
  auto it = std::find_if(ds.begin(), ds.end(), [&](const auto& d) { return d.dev == dev; });
  REQUIRE(it != ds.end());
  return *it;
}
}  // namespace

TEST_CASE("summarize_drives: one entry per whole disk, kernel order") {
  const auto t = usbsat::testing::workstation();  // throws if the builder diagnosed anything
  const auto ds = summarize_drives(t);
  std::vector<std::string> names;
  for (const auto& d : ds) names.push_back(d.dev);
  CHECK(names == std::vector<std::string>{"nvme0n1", "sda", "sdb", "sdc", "sdd", "sde"});
  // Deterministic: a second query gives the same order and content.
  const auto again = summarize_drives(t);
  REQUIRE(again.size() == ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) CHECK(again[i].port_path == ds[i].port_path);
}

TEST_CASE("summarize_drives: UAS SSD at 10G on a root connector") {
  const auto t = usbsat::testing::workstation();
  const auto ds = summarize_drives(t);
  const auto& d = by_dev(ds, "sdb");
  CHECK(d.usb);
  CHECK(d.transport == "usb");
  CHECK(d.devnode == "/dev/sdb");
  CHECK(d.port_path == "2-2");
  CHECK(d.hub_chain.empty());
  REQUIRE(d.connector);
  CHECK(d.connector->id == "usb1-port2");
  CHECK(d.connector->usb3_port == "usb2-port2");
  CHECK(d.connector->speed_class == ConnectorClass::Usb3_10G);
  REQUIRE(d.controller);
  CHECK(d.controller->pci == "0000:00:14.0");
  CHECK(d.controller->kind == HcdKind::Xhci);
  CHECK(d.controller->vendor_id == 0x8086);
  CHECK(d.controller->device_id == 0x7a60);
  CHECK(d.pcie_uplink.empty());  // chipset-integrated
  CHECK(d.speed == UsbSpeed::SuperPlus);
  CHECK(d.capable_speed == UsbSpeed::SuperPlus);
  CHECK(d.protocol == StorageProtocol::Uas);
  CHECK(d.uas_capable == true);
  CHECK(d.queue_depth == 30u);
  CHECK(d.max_sectors_kb == 1024u);
  CHECK(d.max_hw_sectors_kb == 65535u);
  CHECK(d.vid_pid == "04e8:4001");
  CHECK(d.model == "PSSD T7");
  CHECK(d.size_bytes == 1000204886016ull);
  CHECK(d.hctl == "6:0:0:0");
}

TEST_CASE("summarize_drives: quirked enclosure behind a hub runs BOT and says why") {
  const auto t = usbsat::testing::workstation();
  const auto d = summarize_drives(t);
  const auto& e = by_dev(d, "sdc");
  CHECK(e.port_path == "2-1.1");
  CHECK(e.hub_chain == std::vector<std::string>{"2-1"});
  REQUIRE(e.connector);
  CHECK(e.connector->id == "1-1-port1");
  CHECK(e.connector->label == "hub 1-1/2-1 port 1");
  CHECK(e.protocol == StorageProtocol::Bot);
  CHECK(e.uas_capable == true);
  CHECK(e.uas_blocked_reason == "usb-storage quirks=152d:0578:u");
  CHECK(e.queue_depth == 1u);
  CHECK(e.mountpoints == std::vector<std::string>{"/mnt/backup"});
  const auto& s2 = by_dev(d, "sdd");
  CHECK(s2.hub_chain == std::vector<std::string>{"1-1"});
  CHECK(s2.speed == UsbSpeed::High);
  CHECK(s2.uas_capable == false);
}

TEST_CASE("summarize_drives: USB3 stick in a USB2-only port runs at 480, capable 5000") {
  const auto t = usbsat::testing::workstation();
  const auto d = summarize_drives(t);
  const auto& s = by_dev(d, "sde");
  CHECK(s.speed == UsbSpeed::High);
  CHECK(s.capable_speed == UsbSpeed::Super);
  CHECK_FALSE(s.capable_from_bos);
  REQUIRE(s.connector);
  CHECK(s.connector->speed_class == ConnectorClass::Usb2Only);
  REQUIRE(s.connector->physical_location);
  CHECK(s.connector->physical_location->panel == "front");
}

TEST_CASE("summarize_drives: non-USB disks have no USB fields") {
  const auto t = usbsat::testing::workstation();
  const auto d = summarize_drives(t);
  for (const auto* name : {"sda", "nvme0n1"}) {
    const auto& s = by_dev(d, name);
    CHECK_FALSE(s.usb);
    CHECK_FALSE(s.port_path);
    CHECK_FALSE(s.connector);
    CHECK_FALSE(s.controller);
    CHECK_FALSE(s.protocol);
    CHECK_FALSE(s.uas_capable);
    CHECK_FALSE(s.speed);
    CHECK_FALSE(s.vid_pid);
    CHECK(s.hub_chain.empty());
    CHECK(s.pcie_uplink.empty());
  }
  CHECK(by_dev(d, "sda").transport == "sata");
  CHECK(by_dev(d, "nvme0n1").transport == "nvme");
  CHECK(by_dev(d, "nvme0n1").mountpoints == std::vector<std::string>{"/"});
}

TEST_CASE("summarize_drives: add-in card lists its PCIe uplink, nearest first") {
  const auto t = usbsat::testing::asm1042_card();
  const auto d = summarize_drives(t);
  REQUIRE(d.size() == 2);
  for (const auto& s : d) {
    REQUIRE(s.controller);
    CHECK(s.controller->pci == "0000:03:00.0");
    CHECK(s.controller->link.width == 1u);
    REQUIRE(s.pcie_uplink.size() == 1);
    CHECK(s.pcie_uplink[0].pci == "0000:00:1c.4");
    CHECK(s.pcie_uplink[0].link.speed_gts == 5.0);
    CHECK(s.pcie_uplink[0].link.max_speed_gts == 8.0);
    CHECK(s.protocol == StorageProtocol::Uas);
  }
}

TEST_CASE("format_vid_pid") {
  CHECK(format_vid_pid(0x0781, 0x558c) == "0781:558c");
  CHECK(format_vid_pid(0xffff, 0) == "ffff:0000");
}
