// speed_below_capability: why a drive negotiated less than it can, and which free connectors run at full
// speed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("speed_below_capability: causes and suggested connectors") {
  SUBCASE("USB3 connector, device on its USB2 side: cable or connector") {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb2, 2),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sde"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Problem);
    CHECK(contains(f.message, "has a USB3 side (usb2-port2)"));
    CHECK(evidence(f, "usb1-port2/peer") == "usb2-port2");
    CHECK(contains(f.fix, "usb1-port1"));  // free, with a USB3 side
  }
  SUBCASE("no port of the hub has a peer link: USB2-only is not said, the cause is unknown (issue 24)") {
    Machine m;
    const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 4);
    m.root_hub(ctrl, 2, UsbSpeed::Super, 4);  // a SuperSpeed root hub, but no peer links anywhere
    m.drive(Machine::port_of(u1, 3),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdc"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(f.message, "the cause is unknown: no port of usb1-port3's hub has a `peer` link"));
    CHECK(!contains(f.message, "USB 2.0 only"));
  }
  SUBCASE("a USB3 peer marked 'not used' makes the connector USB2-only") {
    Machine m;
    const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 7);
    const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 7);
    m.peer(Machine::port_of(u1, 7), Machine::port_of(u2, 7));
    m.port(Machine::port_of(u2, 7)).connect_type = "not used";
    m.drive(Machine::port_of(u1, 7),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdc"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(
        f.message,
        "connector usb1-port7 is USB 2.0 only (the firmware marks its USB3 peer usb2-port7 as not used)"));
    CHECK(evidence(f, "usb2-port7/connect_type") == "not used");
  }
  SUBCASE("10G drive at 5G on a Gen 1 controller: names the controller, suggests another one") {
    Machine m;
    const auto gen1 = intel_xhci(m, UsbSpeed::Super, "0000:00:14.0", 1);
    intel_xhci(m, UsbSpeed::SuperPlus, "0000:05:00.0", 3);
    m.drive(Machine::port_of(gen1.usb3, 1),
            {.speed = UsbSpeed::Super, .capable = UsbSpeed::SuperPlus, .capable_from_bos = true},
            {.name = "sdf"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.message, "USB 3.2 Gen 1 controller"));
    CHECK(evidence(f, "free connectors at full speed (other controllers)") ==
          "usb3-port1 (USB3 side usb4-port1), usb3-port2 (USB3 side usb4-port2), usb3-port3 (USB3 side "
          "usb4-port3), "
          "usb3-port4 (USB3 side usb4-port4)");
  }
  SUBCASE("16 free connectors elsewhere: the evidence names 8 and counts the rest (issue 24: 33 MB)") {
    Machine m;
    const auto gen1 = intel_xhci(m, UsbSpeed::Super, "0000:00:14.0", 1);
    for (unsigned i = 0; i < 4; ++i)
      intel_xhci(m, UsbSpeed::SuperPlus, fmt::format("0000:0{}:00.0", i + 5), 3 + 2 * i);
    m.drive(Machine::port_of(gen1.usb3, 1),
            {.speed = UsbSpeed::Super, .capable = UsbSpeed::SuperPlus, .capable_from_bos = true},
            {.name = "sdf"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    const auto listed = evidence(f, "free connectors at full speed (other controllers)");
    CHECK(listed.starts_with("usb3-port1 (USB3 side usb4-port1), "));
    CHECK(listed.ends_with("usb5-port4 (USB3 side usb6-port4) and 8 more"));
    CHECK(std::count(listed.begin(), listed.end(), '(') == 8);
    CHECK(contains(f.fix, "(13 more, 5 of them in the evidence)"));
  }
  SUBCASE("bcdUSB 3.20 without BOS does not prove 10 Gb/s") {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1),
            {.speed = UsbSpeed::Super,
             .bcd_usb = 0x320,
             .capable = UsbSpeed::SuperPlus,
             .capable_from_bos = false},
            {.name = "sdg"});
    CHECK(diagnose(m.finish()).findings.empty());
  }
  SUBCASE("connectors marked 'not used' and occupied ones are never suggested") {
    Machine m;
    const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
    const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 2);
    const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 1);
    m.pair_ports(u1, u2, 1);
    m.port(Machine::port_of(u2, 1)).connect_type = "not used";
    m.drive(Machine::port_of(u1, 2),
            {.speed = UsbSpeed::High, .bcd_usb = 0x320, .capable = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdh"});
    const auto r = diagnose(m.finish());
    const auto& f = only(r.findings, "speed_below_capability");
    CHECK(contains(f.fix, "No free connector on this machine runs at 5 Gb/s"));
  }
}
