// overcurrent: over-current events on a connector.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("overcurrent on a connector, with and without a drive") {
  Machine m;
  const auto ctrl = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
  const auto u1 = m.root_hub(ctrl, 1, UsbSpeed::High, 2);
  const auto u2 = m.root_hub(ctrl, 2, UsbSpeed::Super, 2);
  m.pair_ports(u1, u2, 2);
  m.port(Machine::port_of(u1, 1)).over_current_count = 3u;
  m.port(Machine::port_of(u1, 1)).physical_location =
      PhysicalLocation{.panel = "back", .vertical_position = "upper", .horizontal_position = "left"};
  m.port(Machine::port_of(u2, 2)).over_current_count = 1u;
  m.drive(Machine::port_of(u2, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
  const auto r = diagnose(m.finish());
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].id == "overcurrent");
  CHECK(r.findings[0].severity == FindingSeverity::Problem);
  CHECK(r.findings[0].devices == std::vector<std::string>{"usb1-port1"});
  CHECK(evidence(r.findings[0], "usb1-port1/over_current_count") == "3");
  CHECK(contains(r.findings[0].message, "back panel, upper left"));
  CHECK(contains(r.findings[0].message, "3 over-current events"));
  CHECK(r.findings[1].devices == std::vector<std::string>{"usb2-port2", "sdb", "2-2"});
  CHECK(contains(r.findings[1].message, "sdb is plugged in now"));
  CHECK(worst(r.findings) == FindingSeverity::Problem);
}
