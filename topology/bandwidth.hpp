#pragma once
/// The bandwidth model: a Bandwidth unit type, one table of link capacities (USB by negotiated speed and
/// storage protocol, PCIe by generation and width), and the shared resources on a block device's path to
/// the root of the topology, USB4/Thunderbolt links and tunnels included. Everything here is pure; calibrated
/// figures replace nominal ones by handing a modified CapacityModel to the same functions.
///
/// Units: MB/s means 10^6 bytes per second everywhere (never MiB/s). A capacity is *payload* throughput,
/// what a sequential reader can move, not the signalling rate.
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topology/basis.hpp"
#include "topology/published.hpp"
#include "topology/topology.hpp"

namespace usbsat::topology {

/// A data rate. Stored as whole bytes per second: payload throughput is what usbsat measures and
/// predicts, and integer storage makes comparisons, table look-ups and max-flow capacities exact.
/// (STYLE G9 sketches bits_per_s; bytes avoid a factor of 8 at every MB/s boundary.)
struct Bandwidth {
  std::uint64_t bytes_per_s = 0;

  static constexpr Bandwidth from_bytes_per_s(std::uint64_t b) { return Bandwidth{b}; }
  /// MB/s (10^6 B/s), rounded to the nearest byte per second; negative values and NaN clamp to zero, values
  /// beyond the type (an absurd figure from input) saturate at its maximum instead of overflowing.
  static constexpr Bandwidth from_mbs(double mbs) {
    const double b = mbs * 1e6 + 0.5;
    if (!(mbs > 0)) return Bandwidth{0};
    if (b >= 0x1p64) return Bandwidth{UINT64_MAX};
    return Bandwidth{static_cast<std::uint64_t>(b)};
  }
  /// Signalling-style rate in Mb/s (10^6 bit/s), e.g. 480 -> 60 MB/s.
  static constexpr Bandwidth from_mbit(double mbit) { return from_mbs(mbit / 8.0); }
  static constexpr Bandwidth zero() { return Bandwidth{0}; }

  constexpr double mbs() const { return static_cast<double>(bytes_per_s) / 1e6; }
  constexpr bool is_zero() const { return bytes_per_s == 0; }

  constexpr auto operator<=>(const Bandwidth&) const = default;
  constexpr Bandwidth operator+(Bandwidth o) const { return Bandwidth{bytes_per_s + o.bytes_per_s}; }
  /// Saturating subtraction: a rate never goes negative.
  constexpr Bandwidth operator-(Bandwidth o) const {
    return Bandwidth{bytes_per_s > o.bytes_per_s ? bytes_per_s - o.bytes_per_s : 0};
  }
  constexpr Bandwidth operator*(double f) const { return from_mbs(mbs() * f); }
};

/// The USB link "generation": negotiated speed together with the lane count (Gen 1x2 and Gen 2 both report
/// speed 10000 but differ in encoding and payload).
enum class UsbRate : std::uint8_t { Unknown, Low, Full, High, Gen1, Gen1x2, Gen2, Gen2x2, Usb4 };

/// The rate of a link negotiated at `speed` with `lanes` receive lanes.
UsbRate usb_rate(UsbSpeed speed, unsigned lanes);
/// "USB 2.0", "USB 3.2 Gen 1", "USB 3.2 Gen 2x2", ...
std::string_view to_string(UsbRate r);

/// One row of the USB capacity table: achievable payload for one negotiated rate.
struct UsbCapacityRow {
  UsbRate rate;
  double bot_mbs;     ///< one drive with Bulk-Only Transport (QD1, one command in flight)
  double uas_mbs;     ///< one drive with UAS (queued commands, streams)
  double shared_mbs;  ///< the link/bus itself, whatever the protocol: hub uplinks and EHCI/OHCI/UHCI buses
  std::string_view source;  ///< where the figures come from
};

/// One row of the PCIe table: payload per lane after line encoding, before TLP overhead.
struct PcieCapacityRow {
  unsigned generation;
  double gts;
  double lane_mbs;
  std::string_view source;
};

/// A capacity measured for one resource (`usbsat saturate`'s plateau, remembered by topology/history), used
/// in place of the table's figure while the resource is the same thing: `identity` (resource_identity()) must
/// match the resource's vertex in the topology at hand, so a controller card moved to another slot, or
/// another card in the same slot, is not taken for the one measured.
struct Calibration {
  std::string identity;  ///< resource_identity() of the measured resource's vertex ("1b21:1042")
  double mbs = 0;        ///< the measured capacity
  Basis basis;           ///< kind Measured: when, where, at_least; model_mbs is filled in when applied
};

/// Which way a drive's data moves: reads (drive -> host) or writes (host -> drive). On a USB4 link the
/// DisplayPort tunnels take host -> dock bandwidth only, so a dock's USB3 tunnel has a ceiling per direction.
enum class Direction : std::uint8_t { Read, Write };
/// "read", "write".
std::string_view to_string(Direction d);

/// The capacity model: the two tables, the PCIe protocol efficiency, and per-resource overrides.
/// nominal_model() is the documented default; a calibration run may copy it and replace rows or add
/// overrides keyed by resource id ("controller:0000:03:00.0" -> measured 360 MB/s).
struct CapacityModel {
  std::vector<UsbCapacityRow> usb;
  std::vector<PcieCapacityRow> pcie;
  double pcie_efficiency = 0.8;  ///< TLP/DLLP overhead; see bandwidth.cpp for the derivation
  std::map<std::string, double, std::less<>> overrides_mbs;  ///< resource id -> capacity (MB/s)
  /// resource id -> a measured capacity; applied before `overrides_mbs` when its identity matches
  std::map<std::string, Calibration, std::less<>> calibrated;
  /// Published measurements of controllers on stated setups (topology/published.hpp): a ceiling on the
  /// controller and, per protocol, on the links of its drives, where below the table's figure.
  std::vector<PublishedRow> published;
  /// The direction predicted: a USB4 dock's USB3 tunnel carries less host -> dock (writes) when DisplayPort
  /// streams share its link (Usb4LinkSummary::usb3_tunnel_write).
  Direction direction = Direction::Read;
};

/// The documented nominal model (built from the constexpr tables in bandwidth.cpp).
const CapacityModel& nominal_model();
/// The constexpr tables themselves, for reports and tests.
std::span<const UsbCapacityRow> usb_capacity_table();
std::span<const PcieCapacityRow> pcie_capacity_table();

/// Storage protocols the drive-link figure depends on; StorageProtocol::None/Other use the UAS (upper-bound)
/// figure, so an unknown protocol never makes the model claim a drive is slower than it can be.
/// Returns nullopt for an unknown rate.
std::optional<Bandwidth> usb_drive_capacity(UsbRate rate, StorageProtocol p,
                                            const CapacityModel& m = nominal_model());
/// Capacity of a USB link or bus shared by several devices (hub uplink, EHCI bus); nullopt when unknown.
std::optional<Bandwidth> usb_shared_capacity(UsbRate rate, const CapacityModel& m = nominal_model());
/// Payload capacity of a PCIe link at its *current* speed and width (falls back to the maximum ones when the
/// current ones are absent); nullopt when neither speed nor width is known.
std::optional<Bandwidth> pcie_capacity(const PcieLink& link, const CapacityModel& m = nominal_model());

// ---- USB4 / Thunderbolt links and their tunnels (sources in bandwidth.cpp and topology/README.md)
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

/// What kind of shared thing a resource is.
enum class ResourceKind : std::uint8_t {
  DriveLink,   ///< the drive's own USB link (port -> device), by negotiated speed and protocol
  HubUplink,   ///< a hub's upstream link (the half of a USB3 hub pair that carries the drive)
  UsbBus,      ///< the single bus of an EHCI/OHCI/UHCI root hub, shared by all its ports
  Controller,  ///< the host controller itself (unlimited unless calibrated)
  PcieLink,    ///< a PCIe link above the controller (controller's own link, bridges, switch ports)
  Usb4Tunnel,  ///< the USB3 tunnel of a USB4 link that carries the root port's traffic
               ///< (topology/usb4_tunnels)
  PcieTunnel,  ///< the PCIe tunnel of a Thunderbolt link that carries the controller (topology/pcie_tunnels)
  Declared,    ///< a capacity declared by the user for a group without topology (`--group NAME=...@CAP`)
};
/// "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link", "usb4_tunnel", "pcie_tunnel",
/// "declared".
std::string_view to_string(ResourceKind k);

/// A capacity-limited thing on a drive's path to the root.
struct Resource {
  std::string id;  ///< unique and stable: "<kind>:<node>", e.g. "pcie_link:0000:03:00.0"
  ResourceKind kind = ResourceKind::DriveLink;
  std::string node;  ///< stable id of the vertex it belongs to: BDF, kernel name ("2-1.4", "usb1")
  std::optional<Vertex> vertex;       ///< the topology vertex (absent for declared groups)
  std::optional<Bandwidth> capacity;  ///< nullopt: not modelled, never limits
  std::string label;                  ///< human description: "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042 ...)"
  /// Where `capacity` comes from when it is not the table's: a measured capacity (CapacityModel::calibrated)
  /// or a published one (CapacityModel::published)
  std::optional<Basis> capacity_basis;
  bool operator==(const Resource&) const = default;
};

/// Stable id of a vertex: the PCI address for PCI hops and controllers, the H:C:T:L of a SCSI device, the
/// kernel name otherwise.
std::string node_id(const Topology& t, Vertex v);
/// What a vertex calls itself, raw (not escaped): vendor + model for controllers and PCI hops ("ASMedia
/// ASM1042"), the product string (else the hwdb model) for USB devices; "" otherwise. The resource labels
/// below and topology::describe_node() (which escapes it) share this one rule.
std::string node_product(const Topology& t, Vertex v);

/// What a resource's vertex is, to tell a remembered measurement's resource from another one at the same
/// place: "vvvv:dddd" PCI ids of a controller or PCI hop, USB vid:pid of a hub, vendor:device of a router;
/// "" when unknown.
std::string resource_identity(const Topology& t, Vertex v);

/// A controller's own PCIe link: the one on the edge from its PCI parent when known, else its own attributes.
PcieLink controller_pcie_link(const Topology& t, Vertex c);

/// The resources on the path of block device `block` to its root, nearest to the drive first: its drive
/// link, the uplink of every hub above it (inner hub first), the EHCI/OHCI/UHCI bus of its root hub, its
/// controller, and every PCIe link from the controller up to the root port. Empty for a block device that
/// is not below a USB device.
///
/// An xHCI root port gets no separate resource: each xHCI root port has its own link, and that link is
/// exactly the drive link or the outermost hub uplink already in the list (a duplicate of equal capacity
/// would only tie with it).
std::vector<Resource> path_resources(const Topology& t, Vertex block,
                                     const CapacityModel& m = nominal_model());

/// The link of a drive at `v` (its USB device, or the port `plan` puts a drive on) negotiated at `rate` with
/// storage protocol `proto`: the first resource of path_resources(), and the one plan scores a placement by,
/// so both name it alike ("USB 3.2 Gen 1 UAS link of 4-1 (Portable SSD T5)", id "drive_link:4-1") and both
/// take a calibrated or overridden capacity.
Resource drive_link_resource(const Topology& t, Vertex v, UsbRate rate, StorageProtocol proto,
                             const CapacityModel& m = nominal_model());

/// The resources above downstream port `port` (a Port vertex), nearest first: steps 2-5 of path_resources()
/// (hub uplinks, EHCI/OHCI/UHCI bus, controller, PCIe links). path_resources() of a drive plugged into
/// `port` is its drive link followed by exactly these; the planner uses them for drives not plugged in yet.
std::vector<Resource> upstream_resources(const Topology& t, Vertex port,
                                         const CapacityModel& m = nominal_model());

/// The published measurement of the setup disk `block` is on, for its protocol (kind Published, the table's
/// drive-link figure as `model_mbs`), whether or not it is below the table's; nullopt when no row describes
/// its controller or the row has no figure for its protocol.
std::optional<Basis> published_for_drive(const Topology& t, Vertex block,
                                         const CapacityModel& m = nominal_model());

/// The drive's own link ceiling: the capacity of its drive_link resource (nullopt when unknown or not USB).
std::optional<Bandwidth> drive_link_capacity(const Topology& t, Vertex block,
                                             const CapacityModel& m = nominal_model());

/// A rate as users type it: "40M", "40MB/s", "40 MB/s", "1.5G", "800k", "12Mb", or a bare "400" (MB/s, the
/// unit usbsat uses everywhere: 10^6 B/s). K/M/G are SI multiples of bytes per second; a trailing "B", "B/s"
/// or "/s" is optional and case-insensitive. nullopt for garbage, zero or negative rates; a rate beyond 1e15
/// B/s ("1e30") saturates to the largest Bandwidth, so every caller's range check names it out of range.
std::optional<Bandwidth> parse_rate(std::string_view s);

}  // namespace usbsat::topology
