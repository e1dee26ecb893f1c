// slow_hub_uplink: a slow hub uplink, and several drives behind one hub.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("slow_hub_uplink: a 5G drive behind a USB2 hub, and two drives behind one USB3 hub") {
  Machine m;
  const auto h = intel_xhci(m);
  // USB2-only hub 1-1 (480) with a 5G-capable drive on its port 1.
  const auto hub2 = m.hub(Machine::port_of(h.usb2, 1), {.product = "USB2.0 Hub", .speed = UsbSpeed::High}, 2);
  m.drive(Machine::port_of(hub2, 1),
          {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
          {.name = "sdb"});
  // USB3 hub 2-2 (5000) with two 5G drives.
  const auto hub3 = m.hub(Machine::port_of(h.usb3, 2), {.speed = UsbSpeed::Super}, 2);
  m.drive(Machine::port_of(hub3, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdc"});
  m.drive(Machine::port_of(hub3, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdd"});
  const auto r = diagnose(m.finish());

  std::vector<const Finding*> hubs;
  for (const auto& f : r.findings)
    if (f.id == "slow_hub_uplink") hubs.push_back(&f);
  REQUIRE(hubs.size() == 2);
  const auto& slow = *hubs[0];  // warning sorts first
  CHECK(slow.severity == FindingSeverity::Warning);
  CHECK(slow.devices == std::vector<std::string>{"sdb", "1-1.1", "1-1"});
  CHECK(evidence(slow, "1-1/speed") == "480");
  CHECK(contains(slow.message, "hub 1-1 (USB2.0 Hub) is connected upstream at 480 Mb/s"));
  const auto& shared = *hubs[1];
  CHECK(shared.severity == FindingSeverity::Info);
  CHECK(shared.devices == std::vector<std::string>{"sdc", "2-2.1", "sdd", "2-2.2", "2-2"});
  CHECK(contains(shared.message, "2 drives share this hub's 5 Gb/s uplink"));
  // The drive behind the USB2 hub is also below its capability, with the hub named as the cause.
  const auto& below = only(r.findings, "speed_below_capability");
  CHECK(contains(below.message, "behind hub 1-1"));
  CHECK(below.devices == std::vector<std::string>{"sdb", "1-1.1"});
}
