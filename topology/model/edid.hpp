#pragma once
/// A pure parser for the EDID a DRM connector exposes in sysfs (`edid`, binary; VESA E-EDID 1.4): the
/// preferred mode (the first detailed timing descriptor), the colour depth of a digital input and the
/// monitor's name, to name a display ("3840x2160", "DELL U2720Q") and to size the DisplayPort stream it takes
/// from a USB4 link (tunnel_rates.hpp dp_stream_bandwidth; topology/README.md: DisplayPort tunnels).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

/// A detailed timing descriptor's active area and pixel clock.
struct EdidMode {
  unsigned width = 0, height = 0;  ///< horizontal and vertical active pixels/lines
  std::uint32_t pixel_clock_khz = 0;
  bool operator==(const EdidMode&) const = default;
};

struct EdidInfo {
  std::optional<EdidMode> preferred;  ///< the first detailed timing descriptor (E-EDID 1.4: preferred mode)
  std::optional<std::string> monitor_name;  ///< display descriptor 0xFC, trailing "\n" and spaces removed
  /// Bits per colour component of a digital input (byte 20, bits 6-4: 6, 8, 10, 12, 14, 16); nullopt for an
  /// analog input or an undefined depth.
  std::optional<unsigned> bits_per_color;
  bool operator==(const EdidInfo&) const = default;
};

/// The 128-byte base block of `bytes` (extension blocks ignored): nullopt when shorter than 128 bytes or
/// without the fixed header 00 FF FF FF FF FF FF 00.
std::optional<EdidInfo> parse_edid(std::string_view bytes);

/// "3840x2160" (the preferred mode), with " DELL U2720Q" when the monitor names itself; "" when neither.
std::string edid_text(const EdidInfo& e);

}  // namespace usbsat::topology
