// usb4_tunnel_displays: drives in a USB4 link's USB3 tunnel, which DisplayPort tunnels on the same link
// shrink.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("usb4_tunnel_displays: DisplayPort tunnels not visible: an info saying what was assumed") {
  const auto r = diagnose(usb4_dock());
  const auto& f = only(r.findings, "usb4_tunnel_displays");
  CHECK(f.severity == FindingSeverity::Info);
  CHECK(f.devices == std::vector<std::string>{"sda", "2-1", "0-1"});
  CHECK(contains(f.message, "rides the USB3 tunnel of the USB4 link 0-1 (Example Dock)"));
  CHECK(contains(f.message, "none were assumed and the tunnel's 8 Gb/s is an upper bound for writes"));
  CHECK(contains(f.message, "writes to the drives would be affected, reads not"));
  // The bandwidth model's figures: HBR2 x 4 with 8b/10b, 36 Gb/s usable of 20 Gb/s x 2.
  CHECK(contains(f.message,
                 "reserves 17.28 Gb/s (HBR2 x 4) of the 36 Gb/s usable; two would leave the link 1.44 Gb/s"));
  CHECK(evidence(f, "0-1/displayport_tunnels") == "not visible");
  CHECK(evidence(f, "0-1/usb3_tunnel_read") == "8 Gb/s");
  CHECK(evidence(f, "0-1/usb3_tunnel_write") == "8 Gb/s");
  CHECK(evidence(f, "0-1/direction_affected") == "write (host to dock)");
}

TEST_CASE("usb4_tunnel_displays: one lane leaves nothing after two displays") {
  const auto r = diagnose(usb4_dock(20, 1));
  const auto& f = only(r.findings, "usb4_tunnel_displays");
  CHECK(contains(f.message, "of the 18 Gb/s usable; two would leave the link nothing for writes"));
}

TEST_CASE("usb4_tunnel_displays: two displays seen on the dock: a warning naming them and the figure") {
  const auto r = diagnose(usb4_dock_displays());
  const auto& f = only(r.findings, "usb4_tunnel_displays");
  CHECK(f.severity == FindingSeverity::Warning);
  // DP-1's stream from its EDID (533.25 MHz x 3 x 10 bits = 15.9975 Gb/s), DP-2 without one: the HBR2 x 4
  // reservation (17.28 Gb/s). Writes get (36 - 33.2775) x 0.8 = 2.178 Gb/s; reads the adapter's 8 Gb/s.
  CHECK(contains(f.message,
                 "with 2 displays (card0-DP-1 3840x2160 DELL U2720Q, card0-DP-2): 2 DisplayPort "
                 "tunnels 33.2775 Gb/s host to dock (EDID modes, HBR2 x 4 reserved for 1 without one) of its "
                 "36 Gb/s usable"));
  CHECK(
      contains(f.message, "Writes (host to dock) are affected: the USB3 tunnel carries at most 2.178 Gb/s"));
  CHECK(contains(f.message, "reads (dock to host) are not, up to 8 Gb/s"));
  CHECK(evidence(f, "0-1/displayport_tunnels") == "33.2775 Gb/s");
  CHECK(evidence(f, "0-1/usb3_tunnel_write") == "2.178 Gb/s");
  CHECK(evidence(f, "0-1/usb3_tunnel_read") == "8 Gb/s");
}

TEST_CASE("usb4_tunnel_displays: no thunderbolt bus, no finding") {
  for (const auto& f : diagnose(asm1042_card()).findings) CHECK(f.id.rfind("usb4_", 0) != 0);
}
