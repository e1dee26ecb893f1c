#include "topology/capacity/tunnel_rates.hpp"

#include <algorithm>

namespace usbsat::topology {
namespace {
/// drivers/thunderbolt/tb.c keeps 10 % of every link free ("guard band") when it hands out bandwidth.
constexpr double kUsb4GuardBand = 0.10;
/// DisplayPort 1.x main link: 8b/10b line coding (DP 1.4 spec 2.1): 8 of every 10 bits carry data.
constexpr double kDp8b10b = 0.8;
/// drivers/thunderbolt/tunnel.c: "Only 90% can be allocated for USB3 isochronous transfers" — the periodic
/// allocation the connection manager hands a USB3 tunnel, not a ceiling on bulk transfers.
constexpr double kUsb3IsochronousShare = 0.90;
/// Colour components of an RGB stream (DisplayPort sends RGB 4:4:4 unless the mode says otherwise).
constexpr unsigned kRgbComponents = 3;

/// The SuperSpeed rate whose signalling is `b` (5, 10, 20 Gb/s); Unknown otherwise.
UsbRate superspeed_rate(Bandwidth b) {
  if (b == Bandwidth::from_mbit(5000)) return UsbRate::Gen1;
  if (b == Bandwidth::from_mbit(10000)) return UsbRate::Gen2;
  if (b == Bandwidth::from_mbit(20000)) return UsbRate::Gen2x2;
  return UsbRate::Unknown;
}
}  // namespace

Bandwidth usb4_link_usable(unsigned lane_gbps, unsigned lanes) {
  return Bandwidth::from_mbit(static_cast<double>(lane_gbps) * 1000.0 * lanes * (1.0 - kUsb4GuardBand));
}

Bandwidth dp_tunnel_bandwidth(double lane_gbps, unsigned lanes) {
  return Bandwidth::from_mbit(lane_gbps * 1000.0 * lanes * kDp8b10b);
}

// The DisplayPort tunnel assumed when its rate is not visible; its own function (the DP part of the model).
Bandwidth dp_tunnel_assumed() {
  constexpr double kHbr2LaneGbps = 5.4;  // DP 1.2 HBR2
  constexpr unsigned kMainLinkLanes = 4;
  return dp_tunnel_bandwidth(kHbr2LaneGbps, kMainLinkLanes);
}

Bandwidth dp_stream_bandwidth(std::uint32_t pixel_clock_khz, unsigned bits_per_color) {
  return Bandwidth::from_mbit(static_cast<double>(pixel_clock_khz) / 1000.0 * kRgbComponents *
                              bits_per_color);
}

Usb3TunnelCeilings usb3_tunnel_ceilings(Bandwidth adapter_max, Bandwidth link_usable, Bandwidth dp_down,
                                        const CapacityModel& m) {
  // The payload the native USB link of the adapter's rate carries (the table's shared figure), as a share of
  // its signalling: 1000 of 1250 MB/s at 10 Gb/s. An adapter of no known rate gets Gen 2's.
  auto payload = usb_shared_capacity(superspeed_rate(adapter_max), m);
  if (!payload) payload = usb_shared_capacity(UsbRate::Gen2, m);
  const double efficiency = adapter_max.is_zero() ? 0 : payload->mbs() / adapter_max.mbs();
  const Bandwidth adapter = adapter_max * efficiency;
  return {std::min(adapter, link_usable * efficiency),
          std::min(adapter, (link_usable - dp_down) * efficiency), adapter_max * kUsb3IsochronousShare};
}

Bandwidth pcie_tunnel_share(Bandwidth link_usable, const CapacityModel& m) {
  return link_usable * m.pcie_efficiency;
}

}  // namespace usbsat::topology
