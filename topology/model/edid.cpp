#include "topology/model/edid.hpp"

#include <array>

#include <fmt/format.h>

#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {

constexpr std::size_t kBlock = 128;
constexpr std::size_t kDescriptors = 54;  ///< four 18-byte descriptors at 54, 72, 90, 108
constexpr std::size_t kDescriptorSize = 18;

unsigned byte(std::string_view b, std::size_t i) {
  return static_cast<unsigned char>(b[i]);
}

/// A detailed timing descriptor (pixel clock != 0): clock in 10 kHz units (bytes 0-1, little-endian),
/// horizontal active = byte 2 + the high nibble of byte 4 << 4, vertical active = byte 5 + the high nibble
/// of byte 7 << 4 (E-EDID 1.4, 3.10.2).
std::optional<EdidMode> timing(std::string_view d) {
  const unsigned clock = byte(d, 0) | (byte(d, 1) << 8);
  if (clock == 0) return std::nullopt;
  EdidMode m;
  m.pixel_clock_khz = clock * 10;
  m.width = byte(d, 2) | ((byte(d, 4) & 0xf0) << 4);
  m.height = byte(d, 5) | ((byte(d, 7) & 0xf0) << 4);
  if (m.width == 0 || m.height == 0) return std::nullopt;
  return m;
}

/// A display descriptor (pixel clock 0) with tag 0xFC: 13 bytes of name, ended by "\n" and space padding.
std::optional<std::string> monitor_name(std::string_view d) {
  if (byte(d, 0) != 0 || byte(d, 1) != 0 || byte(d, 3) != 0xfc) return std::nullopt;
  std::string_view name = d.substr(5, 13);
  // Ended by "\n" (E-EDID 1.4, 3.10.3.4); an unfilled descriptor holds NULs, which end it too.
  if (const auto end = name.find_first_of(std::string_view("\n\0", 2)); end != std::string_view::npos)
    name = name.substr(0, end);
  std::string out(trim(name));
  if (out.empty()) return std::nullopt;
  return out;
}

/// Video input definition (byte 20, E-EDID 1.4 3.6.1): bit 7 set for a digital input, whose bits 6-4 give
/// the colour depth: 001 = 6 bits per primary colour, 010 = 8, ... 110 = 16; 000 undefined, 111 reserved.
std::optional<unsigned> bits_per_color(std::string_view b) {
  constexpr std::size_t kVideoInput = 20;
  const unsigned v = byte(b, kVideoInput);
  const unsigned depth = (v >> 4) & 0x7;
  if (!(v & 0x80) || depth == 0 || depth == 7) return std::nullopt;
  return 4 + 2 * depth;
}

}  // namespace

std::optional<EdidInfo> parse_edid(std::string_view bytes) {
  static constexpr std::array<unsigned, 8> header{0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00};
  if (bytes.size() < kBlock) return std::nullopt;
  for (std::size_t i = 0; i < header.size(); ++i)
    if (byte(bytes, i) != header[i]) return std::nullopt;
  EdidInfo e;
  e.bits_per_color = bits_per_color(bytes);
  for (std::size_t at = kDescriptors; at + kDescriptorSize <= kBlock - 2; at += kDescriptorSize) {
    const auto d = bytes.substr(at, kDescriptorSize);
    if (const auto m = timing(d)) {
      if (!e.preferred) e.preferred = m;
    } else if (auto n = monitor_name(d); n && !e.monitor_name) {
      e.monitor_name = std::move(n);
    }
  }
  return e;
}

std::string edid_text(const EdidInfo& e) {
  std::string out = e.preferred ? fmt::format("{}x{}", e.preferred->width, e.preferred->height) : "";
  if (e.monitor_name) out += (out.empty() ? "" : " ") + *e.monitor_name;
  return out;
}

}  // namespace usbsat::topology
