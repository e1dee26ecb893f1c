#include <doctest/doctest.h>

#include <string>

#include "topology/scan/descriptors.hpp"

using namespace usbsat::topology;

namespace {
std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}
// SanDisk Extreme 0781:558c, bcdUSB 3.20: one config, interface 0 with BOT (alt 0) and UAS (alt 1).
std::string uas_device() {
  const std::string dev =
      bytes({18, 1, 0x20, 0x03, 0, 0, 0, 9, 0x81, 0x07, 0x8c, 0x55, 0x12, 0x10, 1, 2, 3, 1});
  const std::string alt0 = bytes({9, 4, 0, 0, 2, 0x08, 0x06, 0x50, 0}) + bytes({7, 5, 0x81, 2, 0, 4, 0}) +
                           bytes({6, 0x30, 15, 0, 0, 0}) + bytes({7, 5, 0x02, 2, 0, 4, 0}) +
                           bytes({6, 0x30, 15, 0, 0, 0});
  const std::string alt1 = bytes({9, 4, 0, 1, 4, 0x08, 0x06, 0x62, 0}) + bytes({7, 5, 0x01, 2, 0, 4, 0}) +
                           bytes({4, 0x24, 1, 0}) + bytes({7, 5, 0x82, 2, 0, 4, 0}) + bytes({4, 0x24, 2, 0});
  const std::size_t total = 9 + alt0.size() + alt1.size();
  const std::string cfg =
      bytes({9, 2, static_cast<int>(total & 0xff), static_cast<int>(total >> 8), 1, 1, 0, 0x80, 112});
  return dev + cfg + alt0 + alt1;
}
std::string bos(std::initializer_list<std::string> caps) {
  std::string body;
  for (const auto& c : caps) body += c;
  const std::size_t total = 5 + body.size();
  return bytes({5, 0x0f, static_cast<int>(total & 0xff), static_cast<int>(total >> 8),
                static_cast<int>(caps.size())}) +
         body;
}
const std::string kUsb2Ext = bytes({7, 0x10, 0x02, 0x1e, 0xf4, 0, 0});
const std::string kSs = bytes({10, 0x10, 0x03, 0, 0x0e, 0, 1, 10, 0xff, 0x07});
std::string ssp(std::initializer_list<std::uint32_t> attrs, std::uint16_t func, unsigned ssic) {
  std::string s = bytes({static_cast<int>(12 + 4 * attrs.size()), 0x10, 0x0a, 0});
  const std::uint32_t bm = static_cast<std::uint32_t>(attrs.size() - 1) | (ssic << 5);
  for (int i = 0; i < 4; ++i) s += static_cast<char>((bm >> (8 * i)) & 0xff);
  s += static_cast<char>(func & 0xff);
  s += static_cast<char>(func >> 8);
  s += bytes({0, 0});
  for (auto a : attrs)
    for (int i = 0; i < 4; ++i) s += static_cast<char>((a >> (8 * i)) & 0xff);
  return s;
}
std::uint32_t sublink(unsigned ssid, unsigned st, unsigned gbps) {
  return ssid | (3u << 4) | (st << 6) | (1u << 14) | (gbps << 16);
}
}  // namespace

TEST_CASE("descriptors: device, config and every alternate setting") {
  const auto d = parse_usb_descriptors(uas_device());
  CHECK_FALSE(d.truncated);
  REQUIRE(d.device);
  CHECK(d.device->bcd_usb == 0x0320);
  CHECK(d.device->vendor_id == 0x0781);
  CHECK(d.device->product_id == 0x558c);
  CHECK(d.device->num_configurations == 1);
  REQUIRE(d.configs.size() == 1);
  CHECK(d.configs[0].value == 1);
  CHECK(d.configs[0].max_power_raw == 112);
  const auto alts = d.alt_settings(0, 1);
  REQUIRE(alts.size() == 2);
  CHECK(alts[0] == AltSetting{0, 0x08, 0x06, 0x50, 2});
  CHECK(alts[1] == AltSetting{1, 0x08, 0x06, 0x62, 4});
  CHECK(d.alt_settings(1, 1).empty());
  CHECK(d.alt_settings(0, std::nullopt).size() == 2);
  CHECK(d.alt_settings(0, 2).empty());
}

TEST_CASE("descriptors: iInterface tells whether an interface can have an `interface` string") {
  const auto none = parse_usb_descriptors(uas_device());  // both alt settings have iInterface 0
  CHECK_FALSE(none.may_have_interface_string(0, 1));
  CHECK_FALSE(none.may_have_interface_string(0, std::nullopt));
  CHECK(none.may_have_interface_string(1, 1));  // not described: unknown, so it may
  CHECK(none.may_have_interface_string(0, 2));  // no such configuration
  std::string named = uas_device();
  const auto alt1 = named.find(std::string("\x09\x04\x00\x01", 4));
  REQUIRE(alt1 != std::string::npos);
  named[alt1 + 8] = 5;  // alt setting 1 names string 5
  const auto d = parse_usb_descriptors(named);
  REQUIRE(d.configs.size() == 1);
  CHECK(d.configs[0].interfaces[1].string_index == 5);
  CHECK(d.may_have_interface_string(0, 1));
}

TEST_CASE("descriptors: truncation at every length never crashes and keeps what parsed") {
  const std::string full = uas_device();
  for (std::size_t n = 0; n < full.size(); ++n) {
    CAPTURE(n);
    const auto d = parse_usb_descriptors(std::string_view(full).substr(0, n));
    if (n >= 18) CHECK(d.device);
    CHECK(d.alt_settings(0, 1).size() <= 2);
  }
  const auto tail = parse_usb_descriptors(std::string_view(full).substr(0, full.size() - 3));
  CHECK(tail.truncated);
  CHECK(tail.alt_settings(0, 1).size() == 2);  // only alt 1's last endpoint companion is cut
  const auto cut = parse_usb_descriptors(std::string_view(full).substr(0, full.size() - 31 + 5));
  CHECK(cut.truncated);
  CHECK(cut.alt_settings(0, 1).size() == 1);  // alt 1's interface descriptor itself is cut
  // A zero-length descriptor would loop forever: it stops the parse instead.
  CHECK(
      parse_usb_descriptors(bytes({18, 1, 0, 2, 0, 0, 0, 64, 1, 2, 3, 4, 0, 1, 0, 0, 0, 1, 0, 0})).truncated);
}

TEST_CASE("BOS: capable speed from the device capabilities") {
  struct Row {
    const char* what;
    std::string data;
    std::optional<UsbSpeed> capable;
  };
  const Row rows[] = {
      {"USB 2.0 extension only", bos({kUsb2Ext}), UsbSpeed::High},
      {"SuperSpeed", bos({kUsb2Ext, kSs}), UsbSpeed::Super},
      {"SSP Gen 2x1 (one SSID, 10 Gb/s)",
       bos({kUsb2Ext, kSs, ssp({sublink(0, 0, 10), sublink(0, 2, 10)}, 0x1100, 0)}), UsbSpeed::SuperPlus},
      {"SSP Gen 2x2 (SSIDs 5 and 10 Gb/s)",
       bos({kUsb2Ext, kSs,
            ssp({sublink(0, 0, 5), sublink(0, 2, 5), sublink(1, 0, 10), sublink(1, 2, 10)}, 0x1100, 1)}),
       UsbSpeed::SuperPlus2x2},
      {"SSP Gen 1x2 (one SSID, 5 Gb/s lanes)",
       bos({kSs, ssp({sublink(0, 0, 5), sublink(0, 2, 5)}, 0x1100, 0)}), UsbSpeed::SuperPlus},
      {"SSP, 10 Gb/s lanes, min 2 lanes", bos({ssp({sublink(0, 0, 10), sublink(0, 2, 10)}, 0x2200, 0)}),
       UsbSpeed::SuperPlus2x2},
      {"empty BOS", bos({}), std::nullopt},
      {"not a BOS", bytes({5, 0x02, 5, 0, 0}), std::nullopt},
      {"nothing", "", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.what);
    CHECK(parse_bos_descriptors(r.data).capable_speed() == r.capable);
  }
  const auto b =
      parse_bos_descriptors(bos({kUsb2Ext, kSs, ssp({sublink(0, 0, 10), sublink(0, 2, 10)}, 0x1100, 0)}));
  CHECK(b.usb2_lpm);
  CHECK(b.ss_speeds_supported == 0x000e);
  REQUIRE(b.sublink_speeds.size() == 2);
  CHECK(b.sublink_speeds[1].type == 2);
  CHECK(b.sublink_speeds[0].mbps() == doctest::Approx(10000));
}

TEST_CASE("BOS: truncation at every length never crashes") {
  const std::string full =
      bos({kUsb2Ext, kSs,
           ssp({sublink(0, 0, 5), sublink(0, 2, 5), sublink(1, 0, 10), sublink(1, 2, 10)}, 0x1100, 1)});
  for (std::size_t n = 0; n < full.size(); ++n) {
    CAPTURE(n);
    const auto b = parse_bos_descriptors(std::string_view(full).substr(0, n));
    CHECK(b.truncated == (n > 0));
    CHECK(b.capable_speed() != UsbSpeed::SuperPlus2x2);  // the SSP capability is incomplete
  }
}
