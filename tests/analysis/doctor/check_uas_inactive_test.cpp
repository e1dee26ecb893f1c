// uas_inactive: why a UAS-capable drive runs Bulk-Only, and how bad that is.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("uas_inactive: reasons and severities") {
  auto build = [](std::uint16_t vid, std::uint16_t pid, UsbSpeed speed, bool uas_capable,
                  std::string driver) {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(is_superspeed(speed) ? h.usb3 : h.usb2, 1),
            {.vid = vid,
             .pid = pid,
             .speed = speed,
             .bcd_usb = 0x320,
             .capable = speed,
             .capable_from_bos = true},
            {.name = "sdd"}, {.driver = std::move(driver), .uas_alt = uas_capable});
    return m.finish();
  };
  SUBCASE("no visible reason: warning that points at dmesg") {
    const auto r =
        diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"), {.uas_driver_loaded = true});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.fix, "dmesg"));
    CHECK(contains(f.message, "unusual_uas.h"));
  }
  SUBCASE("a quirk for another device does not count") {
    const auto r = diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"),
                            {.usb_storage_quirks = "1234:5679:u,1234:5678:k"});
    CHECK(only(r.findings, "uas_inactive").severity == FindingSeverity::Warning);
  }
  SUBCASE("uas driver absent") {
    const auto r =
        diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "usb-storage"), {.uas_driver_loaded = false});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(evidence(f, "/sys/module/uas") == "(absent)");
    CHECK(contains(f.fix, "modprobe uas"));
  }
  SUBCASE("ASMedia 174c:55aa below SuperSpeed: the kernel's own rule") {
    const auto r = diagnose(build(0x174c, 0x55aa, UsbSpeed::High, true, "usb-storage"));
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Info);
    CHECK(contains(f.message, "below SuperSpeed"));
  }
  SUBCASE("on an OHCI companion: no scatter-gather; the scanner's reason is kept as evidence") {
    Machine m;
    const auto ohci = m.controller(std::nullopt, "0000:00:12.0", HcdKind::Ohci);
    const auto u3 = m.root_hub(ohci, 3, UsbSpeed::Full, 1);
    m.drive(Machine::port_of(u3, 1),
            {.speed = UsbSpeed::Full, .bcd_usb = 0x320, .capable = UsbSpeed::Full, .capable_from_bos = true},
            {.name = "sdd"}, {.driver = "usb-storage", .uas_alt = true});
    auto t = m.finish();
    const auto r = diagnose(t);
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(contains(f.message, "ohci companion controller 0000:00:12.0"));
    CHECK(contains(f.message, "scatter-gather"));
    CHECK(contains(f.fix, "xHCI"));
  }
  SUBCASE("a reason only the scanner saw is used") {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdd"},
            {.driver = "usb-storage", .uas_alt = true, .uas_blocked_reason = "some reason the scanner saw"});
    const auto t = m.finish();
    const auto r = diagnose(t, {.uas_driver_loaded = true});
    const auto& f = only(r.findings, "uas_inactive");
    CHECK(contains(f.message, "some reason the scanner saw"));
    CHECK(evidence(f, "scanner: uas blocked because") == "some reason the scanner saw");
  }
  SUBCASE("not UAS-capable, or already on uas: nothing") {
    CHECK(diagnose(build(0x1234, 0x5678, UsbSpeed::Super, false, "usb-storage")).findings.empty());
    CHECK(diagnose(build(0x1234, 0x5678, UsbSpeed::Super, true, "uas")).findings.empty());
  }
}
