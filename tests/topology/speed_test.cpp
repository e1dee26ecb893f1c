#include <doctest/doctest.h>

#include "topology/model/speed.hpp"

using namespace usbsat::topology;

TEST_CASE("parse_speed accepts every kernel spelling and round-trips") {
  struct Row {
    const char* text;
    UsbSpeed speed;
    double mbps;
  };
  const Row rows[] = {{"1.5", UsbSpeed::Low, 1.5},
                      {"12", UsbSpeed::Full, 12},
                      {"480", UsbSpeed::High, 480},
                      {"53.3-480", UsbSpeed::Wireless, 480},
                      {"5000", UsbSpeed::Super, 5000},
                      {"10000", UsbSpeed::SuperPlus, 10000},
                      {"20000", UsbSpeed::SuperPlus2x2, 20000},
                      {"40000", UsbSpeed::Usb4_40, 40000}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    const auto s = parse_speed(r.text);
    REQUIRE(s);
    CHECK(*s == r.speed);
    CHECK(to_sysfs_string(*s) == r.text);
    CHECK(nominal_mbps(*s) == r.mbps);
  }
  CHECK(parse_speed("480\n") == UsbSpeed::High);
}

TEST_CASE("parse_speed rejects unknown and garbage") {
  for (const char* bad : {"", "unknown", "480M", "5 Gbps", "1.50", "-12"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_speed(bad));
  }
}

TEST_CASE("speed ordering and SuperSpeed classification") {
  CHECK(UsbSpeed::High < UsbSpeed::Super);
  CHECK_FALSE(is_superspeed(UsbSpeed::High));
  CHECK(is_superspeed(UsbSpeed::Super));
  CHECK(is_superspeed(UsbSpeed::SuperPlus2x2));
  CHECK(speed_from_mbps(5000) == UsbSpeed::Super);
  CHECK_FALSE(speed_from_mbps(7));
}
