#pragma once
/// The capacity tables: USB by negotiated rate and storage protocol, PCIe by generation and width, and the
/// CapacityModel that carries them (with calibrations, overrides and published figures) into every function
/// of the capacity model.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topology/capacity/basis.hpp"
#include "topology/capacity/published.hpp"
#include "topology/capacity/rate.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

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
  double pcie_efficiency = 0.8;  ///< TLP/DLLP overhead; see tables.cpp for the derivation
  std::map<std::string, double, std::less<>> overrides_mbs;  ///< resource id -> capacity (MB/s)
  /// resource id -> a measured capacity; applied before `overrides_mbs` when its identity matches
  std::map<std::string, Calibration, std::less<>> calibrated;
  /// Published measurements of controllers on stated setups (topology/capacity/published.hpp): a ceiling on
  /// the controller and, per protocol, on the links of its drives, where below the table's figure.
  std::vector<PublishedRow> published;
  /// The direction predicted: a USB4 dock's USB3 tunnel carries less host -> dock (writes) when DisplayPort
  /// streams share its link (Usb4LinkSummary::usb3_tunnel_write).
  Direction direction = Direction::Read;
};

/// The documented nominal model (built from the constexpr tables in tables.cpp).
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

}  // namespace usbsat::topology
