#include <doctest/doctest.h>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/usb4_link.hpp"

using namespace usbsat::topology;

TEST_CASE("parse_router_name: host and device routers, nothing else of the thunderbolt bus") {
  struct Row {
    const char* text;
    std::optional<RouterAddress> address;
  };
  const Row rows[] = {
      {"0-0", RouterAddress{0, 0}},
      {"0-1", RouterAddress{0, 1}},
      {"1-3", RouterAddress{1, 3}},
      {"0-301", RouterAddress{0, 0x301}},
      {"0-a03", RouterAddress{0, 0xa03}},
      {"domain0", std::nullopt},
      {"0-0:1.1", std::nullopt},
      {"usb4_port1", std::nullopt},
      {"0-", std::nullopt},
      {"-1", std::nullopt},
      {"0-+1", std::nullopt},
      {"0-11223344556677889", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_router_name(r.text) == r.address);
  }
  CHECK(router_name({0, 0x301}) == "0-301");
  CHECK(router_name({2, 0}) == "2-0");
}

TEST_CASE("RouterAddress::parent drops the farthest hop") {
  CHECK(RouterAddress{0, 0x301}.parent() == RouterAddress{0, 1});
  CHECK(RouterAddress{0, 1}.parent() == RouterAddress{0, 0});
  CHECK(RouterAddress{1, 0x50301}.parent() == RouterAddress{1, 0x301});
  CHECK_FALSE(RouterAddress{0, 0}.parent());
  CHECK(RouterAddress{0, 0}.is_host());
}

TEST_CASE("parse_usb4_port_name, parse_usb4_link_type, parse_tb_lane_speed") {
  CHECK(parse_usb4_port_name("usb4_port1") == 1u);
  CHECK(parse_usb4_port_name("usb4_port13") == 13u);
  CHECK_FALSE(parse_usb4_port_name("usb4_port0"));
  CHECK_FALSE(parse_usb4_port_name("usb4_port"));
  CHECK_FALSE(parse_usb4_port_name("usb4_portx"));
  CHECK_FALSE(parse_usb4_port_name("0-1"));

  CHECK(parse_usb4_link_type("usb4\n") == Usb4LinkType::Usb4);
  CHECK(parse_usb4_link_type("tbt") == Usb4LinkType::Tbt);
  CHECK(parse_usb4_link_type("none") == Usb4LinkType::None);
  CHECK_FALSE(parse_usb4_link_type("USB4"));
  CHECK_FALSE(parse_usb4_link_type(""));
  CHECK(to_string(Usb4LinkType::Tbt) == "tbt");

  struct Row {
    const char* text;
    std::optional<unsigned> gbps;
  };
  const Row rows[] = {{"20.0 Gb/s\n", 20u},
                      {"10.0 Gb/s", 10u},
                      {"40 Gb/s", 40u},
                      {"40.0 Gb/s", 40u},
                      {"0.0 Gb/s", std::nullopt},
                      {"20.5 Gb/s", std::nullopt},
                      {"20.0", std::nullopt},
                      {"fast Gb/s", std::nullopt},
                      {"", std::nullopt},
                      // Rates no kernel reports (issue 41: taken as facts before).
                      {"30.0 Gb/s", std::nullopt},
                      {"5.0 Gb/s", std::nullopt},
                      {"80.0 Gb/s", std::nullopt},
                      {"4294967295.0 Gb/s", std::nullopt},
                      {"4294967296.0 Gb/s", std::nullopt},
                      {"-20.0 Gb/s", std::nullopt}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_tb_lane_speed(r.text) == r.gbps);
  }
}

TEST_CASE("parse_tb_lanes, tb_lanes_consistent, parse_tb_generation: only what the kernel writes") {
  struct Row {
    const char* text;
    std::optional<unsigned> lanes, generation;
  };
  const Row rows[] = {
      {"1\n", 1u, 1u},
      {"2", 2u, 2u},
      {"3", 3u, 3u},
      {"4", std::nullopt, 4u},
      {"8", std::nullopt, 8u},  // kMaxTbGeneration: a later USB4 generation
      {"9", std::nullopt, std::nullopt},
      {"0", std::nullopt, std::nullopt},
      {"-1", std::nullopt, std::nullopt},
      {"4294967295", std::nullopt, std::nullopt},
      {"99999999999", std::nullopt, std::nullopt},
      {"two", std::nullopt, std::nullopt},
      {"", std::nullopt, std::nullopt},
      {"2.0", std::nullopt, std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_tb_lanes(r.text) == r.lanes);
    CHECK(parse_tb_generation(r.text) == r.generation);
  }
  CHECK(tb_lanes_consistent(2, 2));
  CHECK(tb_lanes_consistent(1, 1));
  CHECK(tb_lanes_consistent(1, 2));  // one lane trained down one way: still one link
  CHECK(tb_lanes_consistent(3, 1));  // asymmetric USB4 v2
  CHECK(tb_lanes_consistent(1, 3));
  CHECK_FALSE(tb_lanes_consistent(3, 3));
  CHECK_FALSE(tb_lanes_consistent(3, 2));
  CHECK_FALSE(tb_lanes_consistent(0, 2));
}

TEST_CASE("USB4 link and tunnel figures (topology/README.md, sources in tunnel_rates.cpp)") {
  // 20 Gb/s x 2 lanes - 10 % guard band = 36 Gb/s = 4500 MB/s; one lane: 18 Gb/s.
  CHECK(usb4_link_usable(20, 2) == Bandwidth::from_mbs(4500));
  CHECK(usb4_link_usable(20, 1) == Bandwidth::from_mbs(2250));
  CHECK(usb4_link_usable(10, 2) == Bandwidth::from_mbs(2250));
  // HBR2 (5.4 Gb/s per lane) x 4 lanes x 8/10 = 17.28 Gb/s = 2160 MB/s.
  CHECK(dp_tunnel_bandwidth(5.4, 4) == Bandwidth::from_mbs(2160));
  // A display's stream when its mode is known: 533.25 MHz (3840x2160 at 60 Hz, CVT-RB blanking) x 3 x 10
  // bits = 15.9975 Gb/s; 1080p60 (148.5 MHz) at 8 bits = 3.564 Gb/s.
  CHECK(dp_stream_bandwidth(533250, 10) == Bandwidth::from_mbit(15997.5));
  CHECK(dp_stream_bandwidth(148500, 8) == Bandwidth::from_mbit(3564));
}

TEST_CASE(
    "USB3 tunnel ceilings: the adapter's native payload for bulk, writes beside DisplayPort, 90 % "
    "isochronous") {
  const auto gen2 = Bandwidth::from_mbit(10000);
  // Bulk: a 10 Gb/s adapter carries what a native Gen 2 link does (1000 MB/s of 1250); the 90 % of tunnel.c
  // is the isochronous allocation (9 Gb/s), not a ceiling.
  const auto free = usb3_tunnel_ceilings(gen2, usb4_link_usable(20, 2), Bandwidth::zero());
  CHECK(free.read == Bandwidth::from_mbs(1000));
  CHECK(free.write == Bandwidth::from_mbs(1000));
  CHECK(free.isochronous == Bandwidth::from_mbs(1125));
  const auto gen2x2 =
      usb3_tunnel_ceilings(Bandwidth::from_mbit(20000), usb4_link_usable(20, 2), Bandwidth::zero());
  CHECK(gen2x2.read == Bandwidth::from_mbs(2000));
  const auto gen1 =
      usb3_tunnel_ceilings(Bandwidth::from_mbit(5000), usb4_link_usable(20, 2), Bandwidth::zero());
  CHECK(gen1.read == Bandwidth::from_mbs(400));
  // Two 4K displays at 10 bits take 31.995 Gb/s host -> dock of 36: writes get (36 - 31.995) x 0.8 = 3.204
  // Gb/s (400.5 MB/s), reads the adapter's 1000 MB/s.
  const auto two = dp_stream_bandwidth(533250, 10) + dp_stream_bandwidth(533250, 10);
  const auto dock = usb3_tunnel_ceilings(gen2, usb4_link_usable(20, 2), two);
  CHECK(dock.read == Bandwidth::from_mbs(1000));
  CHECK(dock.write.mbs() == doctest::Approx(400.5).epsilon(1e-6));
  // One lane and one HBR2 x 4 reservation: (18 - 17.28) x 0.8 = 0.576 Gb/s for writes.
  const auto one_lane = usb3_tunnel_ceilings(gen2, usb4_link_usable(20, 1), dp_tunnel_bandwidth(5.4, 4));
  CHECK(one_lane.write == Bandwidth::from_mbs(72));
  CHECK(one_lane.read == Bandwidth::from_mbs(1000));
}
