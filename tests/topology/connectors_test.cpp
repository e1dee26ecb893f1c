#include <doctest/doctest.h>

#include "tests/support/machines.hpp"
#include "topology/model/connectors.hpp"

using namespace usbsat::topology;

TEST_CASE("connector_class labels") {
  CHECK(to_string(connector_class(UsbSpeed::Full)) == "USB1.1 only");
  CHECK(to_string(connector_class(UsbSpeed::High)) == "USB2 only");
  CHECK(to_string(connector_class(UsbSpeed::Super)) == "USB3 5G");
  CHECK(to_string(connector_class(UsbSpeed::SuperPlus)) == "USB3 10G");
  CHECK(to_string(connector_class(UsbSpeed::SuperPlus2x2)) == "USB3 20G (Gen2x2)");
  CHECK(to_string(connector_class(std::nullopt)) == "unknown");
}

TEST_CASE("summarize_ports: workstation connectors, occupancy and sharing") {
  const auto t = usbsat::testing::workstation();
  const auto ps = summarize_ports(t);
  REQUIRE(ps.size() == 1);
  const auto& c = ps[0];
  CHECK(c.controller.pci == "0000:00:14.0");
  CHECK(c.controller.root_hubs == std::vector<std::string>{"usb1", "usb2"});
  // 4 root connectors (3 paired + 1 USB2-only) and 4 hub connectors (paired halves).
  REQUIRE(c.connectors.size() == 8);
  const auto& r1 = c.connectors[0];
  CHECK(r1.id == "usb1-port1");
  CHECK(r1.on_root_hub);
  CHECK(r1.label == "usb1/usb2 port 1");
  CHECK(r1.speed_class == ConnectorClass::Usb3_10G);
  CHECK(r1.occupant_name == "2-1");  // both sides are occupied (hub pair); the USB3 half is named
  CHECK(r1.drives == std::vector<std::string>{"sdc", "sdd"});
  CHECK(r1.devices == std::vector<std::string>{"1-1", "2-1"});
  REQUIRE(r1.physical_location);
  CHECK(r1.physical_location->panel == "back");
  CHECK(r1.connect_type == "hotplug");
  CHECK(r1.location == "0x00000001");

  const auto& r4 = c.connectors[7];  // depth-first: hub 1-1's connectors follow usb1-port1
  CHECK(r4.id == "usb1-port4");
  CHECK_FALSE(r4.usb3_port);
  CHECK(r4.speed_class == ConnectorClass::Usb2Only);
  CHECK(r4.drives == std::vector<std::string>{"sde"});

  // External-hub connectors: USB3 half of a 5G hub.
  const auto& h1 = c.connectors[1];
  CHECK(h1.id == "1-1-port1");
  CHECK_FALSE(h1.on_root_hub);
  CHECK(h1.speed_class == ConnectorClass::Usb3_5G);
  CHECK(h1.occupant_name == "2-1.1");
  const auto& h3 = c.connectors[3];
  CHECK_FALSE(h3.occupant);
  CHECK(h3.drives.empty());

  CHECK(c.occupied() == 6);
  CHECK(c.drives == std::vector<std::string>{"sdb", "sdc", "sdd", "sde"});
  REQUIRE(c.hubs.size() == 1);
  CHECK(c.hubs[0].hub == "1-1");
  CHECK(c.hubs[0].peer == "2-1");
  CHECK(c.hubs[0].description == "05e3:0610 GenesysLogic USB2.1 Hub");
  CHECK(c.hubs[0].drives == std::vector<std::string>{"sdc", "sdd"});
}

TEST_CASE("summarize_ports: legacy EHCI with companions and a USB2 hub of sticks") {
  const auto t = usbsat::testing::legacy_ehci();
  const auto ps = summarize_ports(t);
  REQUIRE(ps.size() == 3);
  CHECK(ps[0].controller.kind == HcdKind::Uhci);
  CHECK(ps[0].connectors[0].speed_class == ConnectorClass::Usb1Only);
  CHECK(ps[0].controller.companions == std::vector<std::string>{"0000:00:1d.7"});
  const auto& e = ps[2];
  CHECK(e.controller.kind == HcdKind::Ehci);
  CHECK(e.drives == std::vector<std::string>{"sdb", "sdc", "sdd", "sde"});
  REQUIRE(e.hubs.size() == 1);
  CHECK_FALSE(e.hubs[0].peer);
  CHECK(e.hubs[0].drives.size() == 4);
  CHECK(e.connectors.size() == 8);
  CHECK(e.occupied() == 5);
}

TEST_CASE("drives_below and shared_pcie_uplinks") {
  const auto t = usbsat::testing::asm1042_card();
  REQUIRE(t.controllers().size() == 1);
  CHECK(drives_below(t, t.controllers()[0]).size() == 2);
  CHECK(shared_pcie_uplinks(t).empty());  // one controller only

  // A PCIe switch above two controllers: the switch's downstream hops are not shared, its upstream is.
  const auto sw = usbsat::testing::pcie_switch_card(2);
  const auto shared = shared_pcie_uplinks(sw);
  REQUIRE(shared.size() == 1);
  CHECK(shared[0].pci == "0000:01:00.0");
  CHECK(shared[0].controllers == std::vector<std::string>{"0000:03:00.0", "0000:04:00.0"});
}
