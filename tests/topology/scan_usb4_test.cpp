// The thunderbolt bus over an in-memory FakeSource, one row per class of bad USB4/Thunderbolt input (issue 41
// items 3 and 4): every value the kernel cannot write, and every broken wiring, is unknown or left out with a
// diagnostic naming the file, and the link figures computed from what is left stay sane (this table runs
// under ASan + UBSan in the sanitize leg: 4294967295 lanes x Gb/s overflowed the bandwidth arithmetic).
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "tests/support/fake_source.hpp"
#include "tests/support/fake_system.hpp"
#include "tests/support/scan_rows.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/scan/scan.hpp"

using namespace usbsat::topology;
using usbsat::testing::FakeSource;

namespace {
using namespace usbsat::testing::fake;

const std::string kNhi = kRoot + "/0000:00:0d.2";
const std::string kHost = kNhi + "/domain0/0-0";
const std::string kDock = kHost + "/0-1";
const std::string kTypec = "/sys/devices/platform/USBC000:00/typec/port0";
const std::string kDrm = kRoot + "/0000:00:02.0/drm/card0";

void router(FakeSource& f, const std::string& syspath, const std::string& parent,
            std::map<std::string, std::string> attrs) {
  f.device(
      {.syspath = syspath, .subsystem = "thunderbolt", .devtype = "thunderbolt_device", .parent = parent},
      std::move(attrs));
}

/// The fake system with a USB4 host router 0-0 (NHI 00:0d.2), its USB4 port 1 on Type-C port0, a USB4 dock
/// router 0-1 at 20 Gb/s x 2 and a connected display on port0.
FakeSource usb4_system() {
  FakeSource f = system();
  f.device({.syspath = kNhi, .subsystem = "pci", .driver = "thunderbolt", .parent = kRoot},
           {{"vendor", "0x8086"}, {"device", "0x9a1b"}, {"class", "0x0c0340"}});
  f.device({.syspath = kNhi + "/domain0",
            .subsystem = "thunderbolt",
            .devtype = "thunderbolt_domain",
            .parent = kNhi},
           {{"security", "user"}});
  router(f, kHost, kNhi + "/domain0", {{"generation", "4"}, {"vendor", "0x8087"}, {"device", "0x9a1b"}});
  f.dir(kHost + "/usb4_port1", {{"link", "usb4"}});
  f.link(kHost + "/usb4_port1", "connector", kTypec);
  f.device({.syspath = kTypec, .subsystem = "typec", .devtype = "typec_port"},
           {{"uevent", "DEVTYPE=typec_port"}});
  router(f, kDock, kHost,
         {{"generation", "4"},
          {"vendor", "0xd4"},
          {"device", "0xb0a2"},
          {"rx_speed", "20.0 Gb/s"},
          {"tx_speed", "20.0 Gb/s"},
          {"rx_lanes", "2"},
          {"tx_lanes", "2"}});
  f.device({.syspath = kDrm + "/card0-DP-1", .subsystem = "drm", .devtype = "drm_connector"},
           {{"status", "connected"}, {"enabled", "enabled"}});
  f.link(kDrm + "/card0-DP-1", "typec_connector", kTypec);
  return f;
}

struct Usb4Row {
  const char* name;
  std::function<void(FakeSource&)> mutate;
  std::string where;  ///< the diagnostic's `where`
  std::string says;   ///< a part of its message
  std::function<void(const Topology&, const Usb4LinkSummary&)> check;
};

const RouterInfo& dock(const Topology& t) {
  return t[*t.find(kDock)].as<RouterInfo>();
}

void lanes_unknown(const Topology& t, const Usb4LinkSummary& l) {
  CHECK_FALSE(dock(t).rx_lanes);
  CHECK_FALSE(dock(t).tx_lanes);
  CHECK_FALSE(l.usable);
}
void speed_unknown(const Topology& t, const Usb4LinkSummary& l) {
  CHECK_FALSE(dock(t).rx_speed_gbps);
  CHECK_FALSE(dock(t).tx_speed_gbps);
  CHECK_FALSE(l.usable);
}
void generation_unknown(const Topology& t, const Usb4LinkSummary& l) {
  CHECK_FALSE(dock(t).generation);
  CHECK(l.label.find("Thunderbolt") == std::string::npos);
  CHECK(l.usable == usb4_link_usable(20, 2));
}
void no_display(const Topology&, const Usb4LinkSummary& l) {
  CHECK(l.display_connectors.empty());
}

void attr(FakeSource& f, const char* name, const char* text) {
  f.attr(kDock, name, text);
}

}  // namespace

TEST_CASE("scan: USB4 values the kernel cannot write, and broken USB4 wiring, are unknown and reported") {
  const Usb4Row rows[] = {
      {"lanes 0", [](FakeSource& f) { attr(f, "rx_lanes", "0"), attr(f, "tx_lanes", "0"); }, kDock,
       "'rx_lanes' = '0' is not a lane count", lanes_unknown},
      {"lanes 3 both ways", [](FakeSource& f) { attr(f, "rx_lanes", "3"), attr(f, "tx_lanes", "3"); }, kDock,
       "are not one link's", lanes_unknown},
      {"lanes 4294967295",
       [](FakeSource& f) { attr(f, "rx_lanes", "4294967295"), attr(f, "tx_lanes", "4294967295"); }, kDock,
       "'tx_lanes' = '4294967295'", lanes_unknown},
      {"lanes -1", [](FakeSource& f) { attr(f, "rx_lanes", "-1"), attr(f, "tx_lanes", "-1"); }, kDock,
       "'rx_lanes' = '-1'", lanes_unknown},
      {"speed 30", [](FakeSource& f) { attr(f, "rx_speed", "30.0 Gb/s"), attr(f, "tx_speed", "30.0 Gb/s"); },
       kDock, "'rx_speed' = '30.0 Gb/s' is not a lane speed", speed_unknown},
      {"speed 4294967295",
       [](FakeSource& f) {
         attr(f, "rx_speed", "4294967295.0 Gb/s"), attr(f, "tx_speed", "4294967295.0 Gb/s");
         attr(f, "rx_lanes", "4294967295"), attr(f, "tx_lanes", "4294967295");
       },
       kDock, "'tx_speed' = '4294967295.0 Gb/s'", speed_unknown},
      {"generation garbage", [](FakeSource& f) { attr(f, "generation", "four"); }, kDock,
       "'generation' = 'four' is not a router generation", generation_unknown},
      {"generation 0", [](FakeSource& f) { attr(f, "generation", "0"); }, kDock, "'generation' = '0'",
       generation_unknown},
      {"generation 4294967295", [](FakeSource& f) { attr(f, "generation", "4294967295"); }, kDock,
       "'generation' = '4294967295'", generation_unknown},
      {"connector dangling",
       [](FakeSource& f) { f.link(kHost + "/usb4_port1", "connector", "/sys/devices/platform/nowhere"); },
       kHost + "/usb4_port1", "which is no device", no_display},
      {"connector to itself",
       [](FakeSource& f) { f.link(kHost + "/usb4_port1", "connector", kHost + "/usb4_port1/connector"); },
       kHost + "/usb4_port1", "which is no device", no_display},
      {"connector to its own port",
       [](FakeSource& f) { f.link(kHost + "/usb4_port1", "connector", kHost + "/usb4_port1"); },
       kHost + "/usb4_port1", "which is no device", no_display},
      {"DRM status garbage", [](FakeSource& f) { f.attr(kDrm + "/card0-DP-1", "status", "maybe"); },
       kDrm + "/card0-DP-1", "'status' = 'maybe' is not connected, disconnected or unknown", no_display},
      {"two routers claim one connector",
       [](FakeSource& f) {
         f.dir(kHost + "/usb4_port3", {{"link", "usb4"}});
         f.link(kHost + "/usb4_port3", "connector", kTypec);
         router(f, kHost + "/0-3", kHost,
                {{"generation", "4"},
                 {"rx_speed", "20.0 Gb/s"},
                 {"tx_speed", "20.0 Gb/s"},
                 {"rx_lanes", "2"},
                 {"tx_lanes", "2"}});
       },
       kHost + "/usb4_port3", "names too",
       [](const Topology& t, const Usb4LinkSummary& l) {
         CHECK(l.display_connectors.size() == 1);  // 0-1's: the display counted once
         std::size_t displays = 0;
         for (const auto& link : usb4_links(t)) displays += link.display_connectors.size();
         CHECK(displays == 1);
       }},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    const auto r = scan_bad_input(usb4_system(), row.mutate, row.where, row.says);
    const auto links = usb4_links(r.topology);
    REQUIRE(!links.empty());
    CHECK(links.front().name == "0-1");
    row.check(r.topology, links.front());
  }
}

TEST_CASE("scan: the USB4 fake system itself has no diagnostic and one display on its link") {
  FakeSource f = usb4_system();
  const auto r = scan(f, {.mountinfo_path = ""});
  for (const auto& d : r.diagnostics) {
    CAPTURE(d.where);
    CAPTURE(d.message);
    CHECK(d.where.find("0-") == std::string::npos);
    CHECK(d.where.find("usb4_port") == std::string::npos);
  }
  const auto links = usb4_links(r.topology);
  REQUIRE(links.size() == 1);
  CHECK(links[0].usable == usb4_link_usable(20, 2));
  CHECK(links[0].display_connectors.size() == 1);
}
