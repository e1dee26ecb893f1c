// The PCIe tunnel of a Thunderbolt 3 dock: joined to the dock router by position, and a resource on the path
// of the drives behind the dock's own xHCI.
#include <doctest/doctest.h>

#include "tests/support/machines.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/capacity/usb4_tunnels.hpp"

using namespace usbsat;
using namespace usbsat::topology;

namespace {

/// "<kind>:<node> <MB/s>" of every resource on the drive's path, nearest first.
std::vector<std::string> path_of(const Topology& t, std::string_view name) {
  std::vector<std::string> out;
  for (const auto& r : path_resources(t, testing::disk_named(t, name)))
    out.push_back(r.id + " " + (r.capacity ? std::to_string(static_cast<int>(r.capacity->mbs())) : "-"));
  return out;
}

}  // namespace

TEST_CASE("a Thunderbolt 3 dock's PCIe tunnel: joined by position, min(controller link, link share)") {
  const auto t = testing::tb3_dock();
  const auto tunnels = pcie_tunnels(t);
  REQUIRE(tunnels.size() == 1);
  const auto& p = tunnels[0];
  CHECK(p.name == "0-1");
  CHECK(p.label == "PCIe tunnel of the Thunderbolt 3 link 0-1 (Example Dock)");
  CHECK(node_id(t, p.entry) == "0000:05:00.0");
  CHECK(node_id(t, p.downstream) == "0000:02:01.0");
  REQUIRE(p.controllers.size() == 1);
  CHECK(node_id(t, p.controllers[0]) == "0000:07:00.0");
  CHECK(p.link_share->mbs() == doctest::Approx(3600));  // 20 Gb/s x 2 - 10 % = 36 Gb/s, x 0.8 PCIe payload
  CHECK(p.controllers_pcie->mbs() == doctest::Approx(400));
  CHECK(p.capacity->mbs() == doctest::Approx(400));
  CHECK(p.marked_removable);
  CHECK(p.assumptions.empty());
  // The tunnel replaces the two ends of the tunnelled link (02:01.0, 05:00.0: 2.5 GT/s x4 as the routers'
  // PCIe adapters report it); the physical links at either end stay.
  CHECK(path_of(t, "sda") == std::vector<std::string>{"drive_link:4-1 400", "controller:0000:07:00.0 -",
                                                      "pcie_link:0000:07:00.0 400",
                                                      "pcie_link:0000:06:01.0 400", "pcie_tunnel:0-1 400",
                                                      "pcie_link:0000:01:00.0 3150",
                                                      "pcie_link:0000:00:1c.0 3150"});
  // Not a Thunderbolt 3 USB3 tunnel: the dock's drives ride no USB3 tunnel.
  const auto links = usb4_links(t);
  REQUIRE(links.size() == 1);
  CHECK(!links[0].usb3_tunnel);
  CHECK(links[0].type == "tbt");
}

TEST_CASE("the link's share limits a dock whose xHCI has a wide link: one lane at 10 Gb/s") {
  const auto t = testing::tb3_dock({.xhci = PcieLink{8.0, 4, 8.0, 4}, .lane_gbps = 10, .lanes = 1});
  const auto p = pcie_tunnels(t).at(0);
  CHECK(p.link_share->mbs() == doctest::Approx(900));  // 10 Gb/s x 1 - 10 % = 9 Gb/s, x 0.8
  CHECK(p.capacity->mbs() == doctest::Approx(900));
}

TEST_CASE("joining without the kernel's mark, two docks, and a switch marked fixed") {
  SUBCASE("no removable attribute (kernel < 5.13): joined by position, said") {
    const auto p = pcie_tunnels(testing::tb3_dock({.removable = std::nullopt})).at(0);
    CHECK(!p.marked_removable);
    REQUIRE(p.assumptions.size() == 1);
    CHECK(
        p.assumptions[0] ==
        "PCIe switch 0000:05:00.0 is not marked removable (kernel before 5.13): joined to router 0-1 by its "
        "position behind the Thunderbolt controller's PCIe downstream port 0000:02:01.0");
  }
  SUBCASE("two docks: paired in port order, said on each") {
    const auto tunnels = pcie_tunnels(testing::tb3_dock({.docks = 2}));
    REQUIRE(tunnels.size() == 2);
    CHECK(tunnels[1].name == "0-3");
    CHECK(tunnels[1].controllers.size() == 1);
    REQUIRE(tunnels[1].assumptions.size() == 1);
    CHECK(
        tunnels[1].assumptions[0].starts_with("2 device routers and 2 PCIe switches behind the host "
                                              "controller: paired in order of router port"));
  }
  SUBCASE("the kernel marks the switch fixed: not a tunnel, nothing joined") {
    const auto t = testing::tb3_dock({.removable = false});
    CHECK(pcie_tunnels(t).empty());
    for (const auto& line : path_of(t, "sda")) CHECK(!line.starts_with("pcie_tunnel"));
  }
}
