// usb4_link_below_capability: a USB4 link trained below what both routers can do (the cable).
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

namespace {
std::vector<Finding> below(const topology::Topology& t) {
  return findings_of(t, "usb4_link_below_capability");
}
}  // namespace

TEST_CASE(
    "usb4_link_below_capability: one lane or 10 Gb/s per lane of a 20 Gb/s x 2 link, named with the fix") {
  SUBCASE("20 Gb/s x 2 (what both USB4 routers can do): nothing") {
    CHECK(below(usb4_dock()).empty());
  }
  SUBCASE("one lane: a warning naming the link, its drive and the cable") {
    const auto r = diagnose(usb4_dock(20, 1));
    const auto& f = only(r.findings, "usb4_link_below_capability");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"0-1", "sda", "2-1"});
    CHECK(contains(f.message,
                   "USB4 link 0-1 (Example Dock) trained at 20 Gb/s x 1 lane although both ends can do "
                   "20 Gb/s x 2 lanes: 18 Gb/s usable instead of 36 Gb/s"));
    CHECK(contains(f.message, "Its USB3 tunnel carries sda ("));
    CHECK(contains(f.fix, "carries only one lane pair"));
    CHECK(contains(f.fix, "grep . /sys/bus/thunderbolt/devices/0-1/{rx,tx}_{speed,lanes}"));
    CHECK(evidence(f, "0-1/rx_lanes") == "1");
    CHECK(evidence(f, "0-1/rx_speed") == "20.0 Gb/s");
    CHECK(evidence(f, "0-0/generation") == "4");
  }
  SUBCASE("10 Gb/s per lane: the cable is rated for less") {
    const auto r = diagnose(usb4_dock(10, 2));
    const auto& f = only(r.findings, "usb4_link_below_capability");
    CHECK(contains(f.message,
                   "trained at 10 Gb/s x 2 lanes although both ends can do 20 Gb/s x 2 lanes: 18 Gb/s "
                   "usable instead of 36 Gb/s"));
    CHECK(contains(f.fix, "10 Gb/s per lane means the cable is rated for less than 20 Gb/s per lane"));
  }
}
