#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "report/table.hpp"

using namespace usbsat::report;
namespace tp = usbsat::topology;

TEST_CASE("format_disk_size: decimal units as drive labels use") {
  struct Row {
    std::uint64_t bytes;
    const char* text;
  };
  for (const auto& r : {Row{0, "0 B"}, Row{999, "999 B"}, Row{1000, "1.0 kB"}, Row{16008609792, "16.0 GB"},
                        Row{1000204886016, "1.0 TB"}, Row{500107862016, "500.1 GB"},
                        Row{999950000000, "1.0 TB"}, Row{4000787030016, "4.0 TB"}})
    CHECK(format_disk_size(r.bytes) == r.text);
}

TEST_CASE("format_mbps") {
  CHECK(format_mbps(1.5) == "1.5");
  CHECK(format_mbps(480) == "480");
  CHECK(format_mbps(10000) == "10000");
}

TEST_CASE("fmt::formatter<PcieLink> prints topology::pcie_link_text()") {
  const tp::PcieLink l{.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 1};
  CHECK(fmt::format("{}", l) == tp::pcie_link_text(l));
}

TEST_CASE("class names, triples, labels") {
  CHECK(usb_class_name(0x08) == "Mass Storage");
  CHECK(usb_class_name(0x09) == "Hub");
  CHECK(usb_class_name(0x42) == "Class 0x42");
  CHECK(format_class_triple(8, 6, 0x62) == "08/06/62");
  CHECK(protocol_label(tp::StorageProtocol::Uas) == "UAS");
  CHECK(protocol_label(tp::StorageProtocol::None) == "");
  CHECK(tp::to_string(tp::Severity::Error) == "error");
  CHECK(tp::parse_severity("warning") == tp::Severity::Warning);
  CHECK_FALSE(tp::parse_severity("Warning"));
}

TEST_CASE("dump_json: stable order, nulls, escaping, invalid UTF-8 replaced") {
  Json j{{"b", 1}, {"a", nullptr}, {"s", "q\"\\\n\x01"}, {"bad", std::string("x\xff")}};
  CHECK(
      dump_json(j) ==
      "{\n  \"b\": 1,\n  \"a\": null,\n  \"s\": \"q\\\"\\\\\\n\\u0001\",\n  \"bad\": \"x\xef\xbf\xbd\"\n}\n");
  CHECK(json_mbps(tp::UsbSpeed::Low).dump() == "1.5");
  CHECK(json_mbps(tp::UsbSpeed::SuperPlus).dump() == "10000");
  CHECK(json_mbps(std::nullopt).is_null());
  CHECK(json_hex16(0x0781).dump() == "\"0781\"");
  CHECK(json_pcie_link({}).is_null());
  CHECK(json_pcie_link({.speed_gts = 5.0, .width = 1}).dump() ==
        R"({"speed_gts":5.0,"width":1,"max_speed_gts":null,"max_width":null})");
}

TEST_CASE("dump_json writes what nlohmann's dump writes") {
  // dump_json writes the layout, integers and plain strings itself; every other value goes through
  // nlohmann. Each document here must come out byte for byte as j.dump(2, ' ', false, replace) + "\n".
  const std::vector<Json> docs{
      Json::object(),
      Json::array(),
      nullptr,
      true,
      "plain",
      -7,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::uint64_t>::max(),
      json_object({{"a", Json::object()}, {"b", Json::array()}, {"c", Json::array({Json::object()})}}),
      json_object({{"f", 5.0}, {"g", 2.5}, {"h", 1e300}, {"i", -0.0}, {"j", 0.1}, {"nan", std::nan("")}}),
      json_object({{"ctl\t\x01", "a\"b\\c\x7f\x1f"}, {"utf8", "Gr\xc3\xbc\xc3\x9f \xe2\x82\xac"}}),
      json_object({{"back\\slash", "quote\" only"},
                   {"tilde~ del\x7f", "Printable ASCII !#$%&'()*+,-./:;<=>?@[]^_`{|}"}}),
      json_object({{"bad", "x\xff\xfe\xc3"}, {"key \xff", "cut \xe2\x82"}, {"nul", std::string("a\0b", 3)}}),
      Json::array(
          {Json::array({1, Json::array({2u, Json::array()}), nullptr}), false, json_object({{"k", 3}})}),
      Json::binary({1, 2, 3}),
  };
  for (const auto& j : docs) {
    CAPTURE(j.dump(-1, ' ', false, Json::error_handler_t::replace));
    CHECK(dump_json(j) == j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
  }
}

TEST_CASE("render_table aligns columns by display width") {
  CHECK(render_table({"A", "BB"}, {{"xyz", "1"}, {"\xc3\xbc", "22"}}) == "A    BB\nxyz  1\n\xc3\xbc    22\n");
  CHECK(render_table({"A", "B", "C"}, {{"1"}}) == "A  B  C\n1\n");
  CHECK(display_width("Gr\xc3\xbc\xc3\x9f") == 4);
}

#include "report/plan_report.hpp"

TEST_CASE("plan --predict text: device strings with ESC/BEL are escaped") {
  using tp::Bandwidth;
  const tp::Basis ceiling{tp::BasisKind::LinkCeiling, "USB 3.2 Gen 1 UAS link"};
  PredictInput in;
  in.drives.push_back(
      {{"sdb", Bandwidth::from_mbs(400), ceiling, Bandwidth::from_mbs(200),
        usbsat::results::Bottleneck{"pcie_link:0000:03:00.0", "0000:03:00.0", tp::ResourceKind::PcieLink,
                                    Bandwidth::from_mbs(400),
                                    "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042\x1b]0;owned\a)"}},
       "port 1"});
  in.drives.push_back(
      {{"sdc", Bandwidth::from_mbs(400), ceiling, Bandwidth::from_mbs(200), std::nullopt}, "port 2"});
  in.aggregate = Bandwidth::from_mbs(400);
  in.bound.max_flow = Bandwidth::from_mbs(400);
  const auto text = render_predict_text(in);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\a') == std::string::npos);
  CHECK(text.find("(ASM1042\\x1b]0;owned\\x07)") != std::string::npos);
}

TEST_CASE("dump_json: one safe dump, invalid UTF-8 replaced, never thrown") {
  Json j{{"product", "Bad \xff\xfe"}};
  std::string out;
  REQUIRE_NOTHROW(out = dump_json(j));
  CHECK(out == "{\n  \"product\": \"Bad \xef\xbf\xbd\xef\xbf\xbd\"\n}\n");
  CHECK_THROWS(j.dump(2));  // what a renderer that bypasses dump_json would do
}
