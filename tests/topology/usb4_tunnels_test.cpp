// USB4/Thunderbolt tunnels over more than one router hop: a hub router chained behind a dock.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/support/machines.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/usb4_tunnels.hpp"

using namespace usbsat;
using namespace usbsat::topology;

namespace {

double gbps(std::optional<Bandwidth> b) {
  return b ? static_cast<double>(b->bytes_per_s) * 8 / 1e9 : -1;
}

}  // namespace

TEST_CASE("a hub router behind a dock: its USB3 tunnel arrives at the dock hub's port and rides both links") {
  const auto t = testing::usb4_hub_chain();
  const auto links = usb4_links(t);
  REQUIRE(links.size() == 2);
  CHECK(links[0].name == "0-1");
  CHECK(links[1].name == "0-301");
  REQUIRE(links[1].usb_ports.size() == 1);
  CHECK(node_id(t, links[1].usb_ports[0]) == "2-1-port4");
  CHECK(links[1].label == "USB4 link 0-301 (Example Hub) via 0-1");
  REQUIRE(links[1].path.size() == 2);
  CHECK(links[1].path[0].router == "0-1");
  CHECK(links[1].path[1].router == "0-301");
  CHECK(gbps(links[1].path[0].usable) == doctest::Approx(36));
  CHECK(gbps(links[1].path[1].usable) == doctest::Approx(18));
  // The innermost tunnel of each drive, and every tunnel each rides.
  CHECK(usb4_link_of(t, testing::disk_named(t, "sda"))->name == "0-1");
  CHECK(usb4_link_of(t, testing::disk_named(t, "sdb"))->name == "0-301");
  const auto sdb = usb4_links_of(t, testing::disk_named(t, "sdb"));
  REQUIRE(sdb.size() == 2);
  CHECK(sdb[1].name == "0-1");
  CHECK(usb4_tunnel_disks(t, links[0]).size() == 2);  // the dock's tunnel carries both drives
  CHECK(usb4_tunnel_disks(t, links[1]).size() == 1);
  // The bandwidth model: both tunnels are resources of sdb, innermost first.
  std::vector<std::string> tunnels;
  for (const auto& r : path_resources(t, testing::disk_named(t, "sdb"), nominal_model()))
    if (r.kind == ResourceKind::Usb4Tunnel) tunnels.push_back(r.label);
  CHECK(tunnels == std::vector<std::string>{"USB3 tunnel of the USB4 link 0-301 (Example Hub) via 0-1",
                                            "USB3 tunnel of the USB4 link 0-1 (Example Dock)"});
}

TEST_CASE("the chained tunnel is limited by every link on its path") {
  struct Case {
    testing::HubChain chain;
    double dock_tunnel, hub_tunnel;
  };
  // The host's 10 Gb/s adapter caps the dock's tunnel at its Gen 2 payload, 8 Gb/s; the hub's own figure is
  // min(the dock hub's adapter payload, its link's usable x that efficiency), and the path takes the smaller
  // of that and the dock's tunnel.
  const Case cases[] = {
      {{20, 2, 20, 2, UsbSpeed::SuperPlus2x2}, 8, 8},    // own 16 (20G adapter), the dock's tunnel 8 decides
      {{20, 2, 10, 1, UsbSpeed::SuperPlus2x2}, 8, 7.2},  // the hub's own link: (10 x 1 - 10 %) x 0.8 = 7.2
      {{20, 2, 20, 2, UsbSpeed::SuperPlus}, 8, 8},       // the dock hub's 10G adapter
      {{10, 1, 20, 2, UsbSpeed::SuperPlus2x2}, 7.2, 7.2},  // the dock's link: (10 x 1 - 10 %) x 0.8 = 7.2
  };
  for (const auto& c : cases) {
    const auto links = usb4_links(testing::usb4_hub_chain(c.chain));
    REQUIRE(links.size() == 2);
    CAPTURE(c.chain.hub_gbps);
    CHECK(gbps(links[0].usb3_tunnel) == doctest::Approx(c.dock_tunnel));
    CHECK(gbps(links[1].usb3_tunnel) == doctest::Approx(c.hub_tunnel));
  }
}
