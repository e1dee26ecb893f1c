// usb4_bus_not_visible: a Thunderbolt/USB4 host's USB controller on a machine without a visible
// Thunderbolt/USB4 bus is said, not guessed about.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

namespace {

/// An xHCI named `model` (as pci.ids names it) with a UAS SSD on its first USB3 port; with `router`, the host
/// router of a visible thunderbolt bus too.
topology::Topology named_xhci(const std::string& model, bool router = false) {
  Machine m;
  const auto ctrl =
      m.controller(std::nullopt, "0000:00:0d.0", HcdKind::Xhci,
                   {.vid = 0x8086, .did = 0x9a13, .vendor = "Intel Corporation", .model = model});
  m.root_hub(ctrl, 1, UsbSpeed::High, 1);
  const auto usb3 = m.root_hub(ctrl, 2, UsbSpeed::SuperPlus, 4);
  m.drive(Machine::port_of(usb3, 1), kUsb4DockSsd, {.name = "sda"});
  if (router) m.router(std::nullopt, 0, 4, "Host");
  return m.finish();
}

std::vector<Finding> not_visible(const topology::Topology& t) {
  return findings_of(t, "usb4_bus_not_visible");
}

}  // namespace

TEST_CASE("usb4_bus_not_visible: a Thunderbolt 4 host's xHCI without a thunderbolt bus") {
  SUBCASE("no router: an info finding naming the controller, the evidence and the fix") {
    const auto r = diagnose(named_xhci("Tiger Lake-LP Thunderbolt 4 USB Controller"));
    const auto& f = only(r.findings, "usb4_bus_not_visible");
    CHECK(f.severity == FindingSeverity::Info);
    CHECK(f.devices == std::vector<std::string>{"0000:00:0d.0"});
    CHECK(contains(f.message,
                   "is the USB controller of a Thunderbolt/USB4 host, but no Thunderbolt/USB4 bus "
                   "is visible"));
    CHECK(contains(f.message, "shown as if on an ordinary hub"));
    CHECK(contains(f.fix, "sudo modprobe thunderbolt"));
    CHECK(evidence(f, "0000:00:0d.0 (pci.ids)") == "Tiger Lake-LP Thunderbolt 4 USB Controller");
  }
  SUBCASE("a USB4 xHCI by name (AMD) is one too") {
    CHECK(not_visible(named_xhci("Rembrandt USB4 XHCI controller #3")).size() == 1);
  }
  SUBCASE("the bus is visible: nothing to say") {
    CHECK(not_visible(named_xhci("Tiger Lake-LP Thunderbolt 4 USB Controller", true)).empty());
  }
  SUBCASE("an ordinary controller, or one without a name, is not claimed") {
    CHECK(not_visible(named_xhci("ASM1042 SuperSpeed USB Host Controller")).empty());
    CHECK(not_visible(named_xhci("")).empty());
  }
}
