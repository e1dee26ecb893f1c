#pragma once
/// The arithmetic of USB4/Thunderbolt links and their tunnels: usable link bandwidth, DisplayPort streams,
/// USB3 tunnel ceilings and the PCIe tunnel's share. Which tunnels a topology has: usb4_tunnels.hpp,
/// pcie_tunnels.hpp.
#include <cstdint>

#include "topology/capacity/tables.hpp"

namespace usbsat::topology {

// ---- USB4 / Thunderbolt links and their tunnels (sources in tunnel_rates.cpp and topology/README.md)
// ---------- These are signalling rates after line encoding (Gb/s / 8 as bytes), not the payload of the USB
// or PCIe traffic inside a tunnel: a USB3 tunnel's drives are still limited by their own USB rows above.

/// Usable bandwidth of a USB4/Thunderbolt link of `lanes` lanes at `lane_gbps` Gb/s each: the raw rate
/// minus the 10 % guard band the kernel's connection manager keeps (drivers/thunderbolt/tb.c): 20 Gb/s x 2
/// -> 36 Gb/s (4500 MB/s).
Bandwidth usb4_link_usable(unsigned lane_gbps, unsigned lanes);
/// What a DisplayPort tunnel reserves: link rate per lane (Gb/s) x lanes x 8/10 (8b/10b): HBR2 (5.4) x 4 ->
/// 17.28 Gb/s.
Bandwidth dp_tunnel_bandwidth(double lane_gbps, unsigned lanes);
/// One DisplayPort tunnel whose stream is not known (no EDID mode): HBR2 (5.4 Gb/s per lane) x 4 = 17.28
/// Gb/s, what drivers/thunderbolt/tb.c reserves for a DP tunnel before the bandwidth allocation mode
/// negotiates less.
Bandwidth dp_tunnel_assumed();
/// What a display's stream sends when its mode is known: pixel clock (blanking included, as the EDID's
/// detailed timing gives it) x 3 colour components x `bits_per_color`: 3840x2160 at 60 Hz CVT-RB (533.25 MHz)
/// at 10 bits -> 16 Gb/s.
Bandwidth dp_stream_bandwidth(std::uint32_t pixel_clock_khz, unsigned bits_per_color);

/// A USB3 tunnel's figures (tunnel.c, tb.c; topology/README.md). Bulk traffic is not held to the isochronous
/// allocation: its ceiling is the USB3 adapter's link at the payload the native USB link of that rate carries
/// (the USB table's shared figure: 10 Gb/s -> 1000 MB/s), and never more than the USB4 link leaves at that
/// efficiency after the DisplayPort streams in the same direction (host -> dock: writes).
struct Usb3TunnelCeilings {
  Bandwidth read;         ///< dock -> host: min(adapter payload, usable x efficiency)
  Bandwidth write;        ///< host -> dock: min(adapter payload, (usable - DisplayPort streams) x efficiency)
  Bandwidth isochronous;  ///< what the connection manager may allocate to USB3 isochronous transfers: 90 %
                          ///< of the adapter's rate ("Only 90% can be allocated for USB3 isochronous ...")
};
/// The ceilings of a USB3 tunnel whose adapter runs at `adapter_max` (signalling) on a link with `usable`,
/// `dp_down` taken host -> dock by DisplayPort streams.
Usb3TunnelCeilings usb3_tunnel_ceilings(Bandwidth adapter_max, Bandwidth link_usable, Bandwidth dp_down,
                                        const CapacityModel& m = nominal_model());
/// The PCIe payload a Thunderbolt link's PCIe tunnel can move: the link's usable bandwidth x the PCIe payload
/// efficiency of the table (0.80: the tunnel carries whole TLPs): 36 Gb/s -> 3600 MB/s. The PCIe links at
/// either end (the dock's controller, the host's root port) are resources of their own and often narrower.
Bandwidth pcie_tunnel_share(Bandwidth link_usable, const CapacityModel& m = nominal_model());

}  // namespace usbsat::topology
