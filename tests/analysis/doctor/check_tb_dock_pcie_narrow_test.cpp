// tb_dock_pcie_narrow: a Thunderbolt 3 dock's own xHCI on a PCIe link narrower than its tunnel and ports.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

namespace {
std::vector<Finding> narrow(const topology::Topology& t) {
  return findings_of(t, "tb_dock_pcie_narrow");
}
}  // namespace

TEST_CASE("tb_dock_pcie_narrow: a dock xHCI on PCIe 2.0 x1 shares 400 MB/s among its ports") {
  SUBCASE("FL1100 on PCIe 2.0 x1, four 5 Gb/s ports, two drives: a warning naming router, link and MB/s") {
    const auto r = diagnose(tb3_dock());
    const auto& f = only(r.findings, "tb_dock_pcie_narrow");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"0-1", "0000:07:00.0", "sda", "4-1", "sdb", "4-2"});
    CHECK(contains(f.message, "The dock on the Thunderbolt 3 link 0-1 (Example Dock) has its own"));
    CHECK(contains(f.message, "on a PCIe 5 GT/s x1 link (all it can do)"));
    CHECK(contains(f.message,
                   "shares about 400 MB/s, although the link's PCIe tunnel carries up to 3600 MB/s"));
    CHECK(contains(f.message, "its 4 SuperSpeed ports could move 1600 MB/s together"));
    CHECK(contains(f.fix, "grep . /sys/bus/pci/devices/0000:07:00.0/{current,max}_link_{speed,width}"));
    CHECK(evidence(f, "0000:07:00.0/current_link_width") == "1");
    CHECK(evidence(f, "0-1/generation") == "3");
    CHECK(evidence(f, "PCIe tunnel") == "0000:02:01.0 -> 0000:05:00.0 (removable)");
  }
  SUBCASE("trained below what it can do: said, with the capability") {
    const auto f = narrow(tb3_dock({.xhci = PcieLink{2.5, 1, 5.0, 1}}));
    REQUIRE(f.size() == 1);
    CHECK(contains(f[0].message, "on a PCIe 2.5 GT/s x1 link (capable 5 GT/s x1)"));
    CHECK(contains(f[0].message, "shares about 200 MB/s"));
    CHECK(contains(f[0].fix, "trained below what it can do"));
  }
  SUBCASE("a dock xHCI on PCIe 3.0 x4 (3150 MB/s, more than its ports move): nothing") {
    CHECK(narrow(tb3_dock({.xhci = PcieLink{8.0, 4, 8.0, 4}})).empty());
  }
  SUBCASE("one 5 Gb/s port on PCIe 2.0 x1 (400 of 400 MB/s): nothing") {
    CHECK(narrow(tb3_dock({.ss_ports = 1})).empty());
  }
  SUBCASE("the Thunderbolt link on one lane at 10 Gb/s (900 MB/s of PCIe) still wider than x1: fires") {
    CHECK(narrow(tb3_dock({.lane_gbps = 10, .lanes = 1})).size() == 1);
  }
  SUBCASE("two docks: one finding each, joined by position") {
    const auto f = narrow(tb3_dock({.docks = 2}));
    REQUIRE(f.size() == 2);
    CHECK(f[0].devices.front() == "0-1");
    CHECK(f[1].devices.front() == "0-3");
    CHECK(contains(f[1].message, "0000:0c:00.0"));
  }
}
