#include <doctest/doctest.h>

#include "tests/support/fake_source.hpp"
#include "topology/scan/safe_source.hpp"
#include "topology/scan/scan.hpp"

using namespace usbsat::topology;
using usbsat::testing::FakeSource;

namespace {
const std::string kDev = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1";
}

TEST_CASE("SafeSource: every text answer passes the sanitiser, binary attributes pass unchanged") {
  FakeSource fake;
  fake.device({.syspath = kDev,
               .subsystem = "usb",
               .devtype = "usb_device",
               .driver = "usb\x1b[2J",
               .properties = {{"PRODUCT", "781/5583/100\xe2\x80\xae"}}},
              {{"product", " Evil\x1b]0;title\x07 "}, {"manufacturer", "\xff"}})
      .binary(kDev, "descriptors", std::string("\x12\x01\x1b", 3))
      .link(kDev, "port", "/sys/x/\x1b")
      .hwdb_entry("usb:v0781", "ID_VENDOR_FROM_DATABASE", "V\xc2\x9b")
      .text_file("/proc/self/mountinfo", "1 2 8:0 / /m\x1b rw - ext4 /dev/sda rw\n");
  SafeSource safe(fake);
  CHECK(safe.attribute(kDev, "product") == "Evil\\x1b]0;title\\x07");
  CHECK(safe.attribute(kDev, "manufacturer") == "\\xff");
  CHECK(safe.binary_attribute(kDev, "descriptors") == std::string("\x12\x01\x1b", 3));
  CHECK(safe.link_target(kDev, "port") == "/sys/x/\\x1b");
  CHECK(safe.hwdb("usb:v0781").at(0).value == "V\\xc2\\x9b");
  CHECK(safe.read_text_file("/proc/self/mountinfo") == "1 2 8:0 / /m\\x1b rw - ext4 /dev/sda rw\n");
  const auto r = safe.device(kDev);
  REQUIRE(r);
  CHECK(r->driver == "usb\\x1b[2J");
  CHECK(r->properties.at("PRODUCT") == "781/5583/100\\u202e");
}

TEST_CASE("SafeSource: an escaped path still reaches the raw files below it") {
  const std::string raw = "/sys/devices/virtual/block/sd\x1b[31m";
  FakeSource fake;
  fake.device({.syspath = raw, .subsystem = "block", .devtype = "disk"}, {{"size", "8"}})
      .dir(raw + "/queue", {{"rotational", "1"}});
  SafeSource safe(fake);
  const auto all = safe.enumerate("block");
  REQUIRE(all.size() == 1);
  const std::string escaped = "/sys/devices/virtual/block/sd\\x1b[31m";
  CHECK(all[0].syspath == escaped);
  CHECK(all[0].sysname == "sd\\x1b[31m");
  CHECK(safe.attribute(escaped, "size") == "8");
  CHECK(safe.attribute(escaped + "/queue", "rotational") == "1");
  CHECK(safe.attribute(escaped, "queue/rotational") == "1");
  CHECK(safe.device(escaped).has_value());
  const auto entries = safe.list("/sys/devices/virtual/block", "");
  CHECK(entries == std::vector<std::string>{"sd\\x1b[31m"});
}

TEST_CASE("scan() reads through the sanitiser: a hostile product string is escaped in the model") {
  FakeSource fake;
  fake.device({.syspath = "/sys/devices/platform/hc", .subsystem = "platform", .driver = "xhci-hcd"})
      .device({.syspath = "/sys/devices/platform/hc/usb1",
               .subsystem = "usb",
               .devtype = "usb_device",
               .parent = "/sys/devices/platform/hc"},
              {{"product", "Root\xe2\x80\xae\x1b[2J"}, {"speed", "480"}, {"maxchild", "0"}});
  const auto result = scan(fake);
  const auto& g = result.topology;
  bool seen = false;
  for (const auto v : of_kind(g, NodeKind::RootHub)) {
    CHECK(g[v].as<UsbDeviceInfo>().product == "Root\\u202e\\x1b[2J");
    seen = true;
  }
  CHECK(seen);
}
