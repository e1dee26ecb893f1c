// parse_edid: the preferred mode and monitor name of an E-EDID 1.4 base block, table-tested.
#include <doctest/doctest.h>

#include <string>

#include "topology/model/edid.hpp"

using namespace usbsat::topology;

namespace {

/// A 128-byte EDID with header `ok_header`, detailed timing `dtd` at 54 and a monitor name descriptor at 72.
std::string edid(unsigned clock_10khz, unsigned w, unsigned h, const std::string& name,
                 bool ok_header = true) {
  std::string b(128, '\0');
  const unsigned char header[8] = {0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0};
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(ok_header ? header[i] : 0x11);
  auto put = [&](std::size_t at, unsigned v) { b[at] = static_cast<char>(v & 0xff); };
  put(54, clock_10khz);
  put(55, clock_10khz >> 8);
  put(56, w);
  put(58, (w >> 8) << 4);
  put(59, h);
  put(61, (h >> 8) << 4);
  put(75, 0xfc);
  const std::string padded = (name + "\n" + std::string(13, ' ')).substr(0, 13);
  if (!name.empty()) b.replace(77, 13, padded);
  return b;
}

}  // namespace

TEST_CASE("parse_edid: preferred mode from the first detailed timing, name from descriptor 0xFC") {
  struct Row {
    const char* what;
    std::string bytes;
    std::optional<EdidInfo> want;
  };
  const Row rows[] = {
      {"4K at 60 Hz (CVT-RB, 533.25 MHz)", edid(53325, 3840, 2160, "DELL U2720Q"),
       EdidInfo{EdidMode{3840, 2160, 533250}, "DELL U2720Q"}},
      {"1080p, 148.5 MHz, a 13-character name without newline", edid(14850, 1920, 1080, "ABCDEFGHIJKLM"),
       EdidInfo{EdidMode{1920, 1080, 148500}, "ABCDEFGHIJKLM"}},
      {"no timing (pixel clock 0), no name", edid(0, 0, 0, ""), EdidInfo{}},
      {"a timing with no active area is not a mode", edid(100, 0, 1080, "X"), EdidInfo{std::nullopt, "X"}},
      {"bad header", edid(53325, 3840, 2160, "DELL", false), std::nullopt},
      {"short (127 bytes)", edid(53325, 3840, 2160, "DELL").substr(0, 127), std::nullopt},
      {"empty", "", std::nullopt},
  };
  for (const auto& r : rows) {
    const std::string what = r.what;
    CAPTURE(what);
    const auto got = parse_edid(r.bytes);
    REQUIRE(got.has_value() == r.want.has_value());
    if (!got) continue;
    CHECK(got->preferred == r.want->preferred);
    CHECK(got->monitor_name == r.want->monitor_name);
  }
}

TEST_CASE("edid_text: mode and name, either alone, or nothing") {
  CHECK(edid_text(EdidInfo{EdidMode{3840, 2160, 533250}, "DELL U2720Q"}) == "3840x2160 DELL U2720Q");
  CHECK(edid_text(EdidInfo{EdidMode{1920, 1080, 148500}, std::nullopt}) == "1920x1080");
  CHECK(edid_text(EdidInfo{std::nullopt, "LG"}) == "LG");
  CHECK(edid_text(EdidInfo{}).empty());
}

TEST_CASE("parse_edid: bits per colour of a digital input, from byte 20") {
  struct Row {
    unsigned byte20;
    std::optional<unsigned> bpc;
  };
  const Row rows[] = {
      {0xb5, 10},            // digital, 10 bits, DisplayPort (the fixtures' DELL U2720Q)
      {0xa5, 8},             // digital, 8 bits
      {0x95, 6},             // digital, 6 bits
      {0xe5, 16},            // digital, 16 bits
      {0x85, std::nullopt},  // digital, depth undefined
      {0xf5, std::nullopt},  // reserved
      {0x35, std::nullopt},  // analog: bits 6-4 mean something else
  };
  for (const auto& r : rows) {
    CAPTURE(r.byte20);
    std::string b = edid(53325, 3840, 2160, "DELL U2720Q");
    b[20] = static_cast<char>(r.byte20);
    const auto got = parse_edid(b);
    REQUIRE(got);
    CHECK(got->bits_per_color == r.bpc);
  }
}
