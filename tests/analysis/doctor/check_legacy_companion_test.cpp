// legacy_companion: a USB 2.0 drive at 12 Mb/s on a UHCI/OHCI companion controller.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("legacy_companion: a stick on a UHCI companion") {
  auto build = [](std::uint16_t bcd_usb) {
    Machine m;
    const auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci, {}, {"0000:00:1d.0"});
    const auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci, {}, {"0000:00:1d.7"});
    const auto u5 = m.root_hub(ehci, 5, UsbSpeed::High, 1);
    const auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full, 2);
    m.port(Machine::port_of(u5, 1)).peer = Machine::port_of(u1, 1);
    m.drive(Machine::port_of(u1, 1),
            {.vid = 0x1043,
             .pid = 0x8012,
             .product = "Flash Drive",
             .speed = UsbSpeed::Full,
             .bcd_usb = bcd_usb,
             .capable = UsbSpeed::Full,
             .capable_from_bos = true},
            {.name = "sdb", .max_sectors_kb = 120, .max_hw_sectors_kb = 120},
            {.driver = "usb-storage", .uas_alt = false});
    // A low-speed mouse on the other UHCI port is not storage: no finding for it.
    m.device(Machine::port_of(u1, 2), {.speed = UsbSpeed::Low});
    return m.finish();
  };
  SUBCASE("USB 2.0 device: the EHCI should have it") {
    const auto r = diagnose(build(0x200));
    REQUIRE(r.findings.size() == 1);
    const auto& f = only(r.findings, "legacy_companion");
    CHECK(f.severity == FindingSeverity::Problem);
    CHECK(f.devices == std::vector<std::string>{"sdb", "1-1"});
    CHECK(evidence(f, "1-1/speed") == "12");
    CHECK(evidence(f, "1-1/version") == " 2.00");
    CHECK(evidence(f, "0000:00:1d.0/driver") == "uhci_hcd");
    CHECK(evidence(f, "0000:00:1d.7/driver") == "ehci-pci");
    CHECK(contains(f.message, "12 Mb/s on UHCI controller 0000:00:1d.0"));
    CHECK(contains(f.message, "USB 2.00"));
    CHECK(contains(f.fix, "ehci-pci"));
  }
  SUBCASE("USB 1.1 device: nothing makes it faster") {
    const auto r = diagnose(build(0x110));
    const auto& f = only(r.findings, "legacy_companion");
    CHECK(contains(f.message, "USB 1.1 (full speed) only"));
  }
  SUBCASE("the same stick on the EHCI at 480 is fine") {
    Machine m;
    const auto ehci = m.controller(std::nullopt, "0000:00:1d.7", HcdKind::Ehci);
    const auto u5 = m.root_hub(ehci, 5, UsbSpeed::High, 1);
    m.drive(Machine::port_of(u5, 1),
            {.speed = UsbSpeed::High, .bcd_usb = 0x200, .capable = UsbSpeed::High, .capable_from_bos = true},
            {.name = "sdb", .max_sectors_kb = 120, .max_hw_sectors_kb = 120},
            {.driver = "usb-storage", .uas_alt = false});
    CHECK(diagnose(m.finish()).findings.empty());
  }
}

TEST_CASE("legacy_companion: a blank version string is no reason to crash") {
  Machine m;
  const auto uhci = m.controller(std::nullopt, "0000:00:1d.0", HcdKind::Uhci);
  const auto u1 = m.root_hub(uhci, 1, UsbSpeed::Full, 2);
  const auto d = m.drive(Machine::port_of(u1, 1), {.speed = UsbSpeed::Full, .bcd_usb = 0x200},
                         {.name = "sdb"}, {.driver = "usb-storage", .uas_alt = false});
  m.node(d.device).as<UsbDeviceInfo>().version = "    ";
  const auto r = diagnose(m.finish());
  const auto& f = only(r.findings, "legacy_companion");
  CHECK(contains(f.message, "the device is USB 2.0 and could run at 480 Mb/s"));
  // The figure is the bandwidth model's for one Bulk-Only drive at full speed.
  CHECK(contains(f.message, "about " +
                                topology::bandwidth_text(
                                    *topology::usb_drive_capacity(UsbRate::Full, StorageProtocol::Bot)) +
                                " at best"));
}
