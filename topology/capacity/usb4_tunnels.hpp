#pragma once
/// USB4/Thunderbolt links and what they carry: for every device router, the link to the router above it
/// (speed x lanes, usable bandwidth after the guard band), the DisplayPort tunnels that take their share
/// first, and the USB3 tunnel left for the USB devices behind it, with the USB ports of the host's xHCI it
/// arrives at (joined by Type-C connector). The figures come from tunnel_rates.hpp; every fact that was not
/// visible is named in `assumptions`.
#include <optional>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"
#include "topology/model/usb4_arrivals.hpp"

namespace usbsat::topology {

/// The highest per-lane rate and lane count a link of two routers of this generation can train at
/// (Thunderbolt 3 and USB4 v1: 20 Gb/s x 2; older generations: 10 Gb/s x 2).
struct Usb4Capability {
  unsigned lane_gbps = 20, lanes = 2;
};

/// One link on the path of a USB3 tunnel: the device router at its far end and what the link can carry.
struct Usb4Hop {
  std::string router;               ///< "0-1"
  std::optional<Bandwidth> usable;  ///< speed x lanes - 10 % guard band
};

struct Usb4LinkSummary {
  Vertex router;      ///< the device router at the far end of the link
  Vertex upstream;    ///< the router it is connected to
  std::string name;   ///< the device router's name: "0-1"
  std::string label;  ///< "USB4 link 0-1 (Dell WD22TB4)"; behind another device router "... via 0-1"
  std::string type;   ///< "usb4" or "tbt" (from the upstream USB4 port's `link`), "" when unknown
  std::optional<unsigned> lane_gbps, lanes;  ///< as trained: the smaller of rx and tx
  std::optional<Usb4Capability> capable;     ///< what both ends can do, when both generations are known
  std::optional<Bandwidth> usable;           ///< speed x lanes - 10 % guard band
  Bandwidth displays = Bandwidth::zero();    ///< taken host -> dock by DisplayPort streams
  /// The connected DRM connectors on the Type-C connector the link leaves from, one DisplayPort tunnel each
  /// (dp_stream_of() apiece: the kernel shows no DP link rate or lanes in sysfs, the EDID gives the mode).
  std::vector<DisplayConnectorInfo> display_connectors;
  /// What the USB3 tunnel can carry at most dock -> host (reads): its adapter's payload, within the link
  std::optional<Bandwidth> usb3_tunnel;
  /// ... and host -> dock (writes), beside the DisplayPort streams that take that direction only
  std::optional<Bandwidth> usb3_tunnel_write;
  /// The isochronous allocation the connection manager may give it (90 % of the adapter): no bulk ceiling
  std::optional<Bandwidth> usb3_isochronous;
  std::vector<Vertex> usb_ports;  ///< USB ports its USB3 tunnel arrives at: the host xHCI's, or (behind
                                  ///< another device router) the upstream router's hub port
  std::vector<Usb4Hop> path;      ///< the links its USB3 tunnel passes, host side first; each one limits it
  std::vector<std::string> assumptions;  ///< facts not visible in sysfs and what was assumed instead
  /// Trained below what both ends can do (fewer lanes or a lower rate per lane: usually the cable).
  bool below_capability() const;
  /// Whether DisplayPort tunnels were seen (connected displays joined); else none are assumed, and said.
  bool displays_known() const { return !display_connectors.empty(); }
};

/// What one display's DisplayPort tunnel takes host -> dock: its stream (dp_stream_bandwidth: the EDID's
/// preferred mode x bits per colour, 8 assumed when the EDID gives none) when the mode is known, else the
/// HBR2 x 4 reservation (dp_tunnel_assumed).
struct DisplayStream {
  Bandwidth rate;
  bool reserved = false;       ///< no mode known: the reservation
  bool depth_assumed = false;  ///< the mode known, the colour depth not: 8 bits per colour
};
DisplayStream dp_stream_of(const DisplayConnectorInfo& d);

/// Every USB4/Thunderbolt link (one per device router), in graph order; empty without a thunderbolt bus.
std::vector<Usb4LinkSummary> usb4_links(const Topology& t);
/// The link from device router `router` up to the router above it, if it is one (one summary, not every
/// link's: a renderer asks it per router).
std::optional<Usb4LinkSummary> usb4_link_to(const Topology& t, Vertex router);
/// The link whose USB3 tunnel carries root-hub port `port`, if any.
std::optional<Usb4LinkSummary> usb4_link_of_port(const Topology& t, Vertex port);
/// Every link whose USB3 tunnel carries vertex `v` (a drive, a USB device, a port), innermost first: a drive
/// on a hub chained behind a dock rides the hub's tunnel, and that one rides the dock's.
std::vector<Usb4LinkSummary> usb4_links_of(const Topology& t, Vertex v);
/// The innermost link whose USB3 tunnel carries vertex `v` (usb4_links_of's first).
std::optional<Usb4LinkSummary> usb4_link_of(const Topology& t, Vertex v);

/// The whole disks that ride `link`'s USB3 tunnel (innermost or not), in block_devices() order.
std::vector<Vertex> usb4_tunnel_disks(const Topology& t, const Usb4LinkSummary& link);

}  // namespace usbsat::topology
