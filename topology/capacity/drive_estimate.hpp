#pragma once
/// What a drive can stream by itself, estimated from what the scan shows of its medium: the third basis of a
/// drive's demand (topology/capacity/basis.hpp), after a given and a measured one and before its link's
/// ceiling. A drive is rarely as fast as its link: a portable hard disk streams ~100-150 MB/s on a 400 MB/s
/// link, and a SATA SSD stops at SATA's ~540 MB/s behind any USB-SATA bridge. Two tables, each row with its
/// source:
///   - media: the sustained rate of a medium kind (manufacturers' datasheets);
///   - bridges: common USB-SATA and USB-NVMe bridge chips by USB id (usb.ids, as the udev hwdb ships it) or
///     by the SCSI vendor/model their firmware reports.
/// Rules (pure, table-tested in tests/topology/drive_estimate_test.cpp):
///   - rotational (the kernel's flag): a hard disk; bus-powered (bMaxPower > 100 mA, or unknown) is a
///     portable 2.5" one, self-powered (<= 100 mA: its own power supply) a desktop 3.5" one. Except a
///     removable medium (the SCSI RMB bit, `removable` 1: flash sticks and card readers) on Bulk-Only:
///     usb-storage skips the VPD page that reports the rotation rate (drivers/usb/storage/scsiglue.c sets
///     skip_vpd_pages), so "rotational" is the kernel's default there, not the drive's word: unknown;
///   - non-rotational behind a SATA bridge: a SATA SSD; behind an NVMe bridge: the link is the limit;
///   - anything else: unknown (the link's ceiling is the demand).
/// The estimate is never above the link: the caller takes the smaller of the two.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "topology/capacity/bandwidth.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

enum class MediumKind : std::uint8_t { PortableHdd, DesktopHdd, SataSsd, NvmeSsd };
/// "portable hard disk", "desktop hard disk", "SATA SSD", "NVMe SSD".
std::string_view to_string(MediumKind k);

/// One row of the media table: what one drive of that kind streams at best (sequential, outer tracks).
struct MediumRow {
  MediumKind kind;
  std::optional<double> mbs;  ///< nullopt: faster than any USB link it sits behind (NVMe): the link limits
  std::string_view source;
};
std::span<const MediumRow> medium_table();

enum class BridgeKind : std::uint8_t { Sata, Nvme };

/// One row of the bridge table: a chip (or a product whose chip is known) by USB id, or by the SCSI
/// vendor and model prefix its firmware reports (`vendor_id` 0 then).
struct BridgeRow {
  std::uint16_t vendor_id = 0, product_id = 0;
  std::string_view scsi_vendor, scsi_model_prefix;
  BridgeKind kind = BridgeKind::Sata;
  std::string_view chip;    ///< "ASMedia ASM1153E"
  std::string_view source;  ///< where the id and the kind come from
};
std::span<const BridgeRow> bridge_table();

/// The bridge row for a USB id, else for the SCSI vendor/model (exact vendor, model prefix); nullptr when
/// neither is known.
const BridgeRow* find_bridge(std::optional<std::uint16_t> vendor_id, std::optional<std::uint16_t> product_id,
                             const std::optional<std::string>& scsi_vendor,
                             const std::optional<std::string>& scsi_model);

/// What the scan shows of one USB whole disk, as the rules above read it.
struct MediumFacts {
  std::optional<bool> rotational, removable;
  StorageProtocol protocol = StorageProtocol::None;
  std::optional<unsigned> max_power_ma;
  std::optional<std::uint16_t> vendor_id, product_id;
  std::optional<std::string> scsi_vendor, scsi_model;
};
MediumFacts medium_facts(const Topology& t, Vertex block);

/// An estimate: the medium, its rate (nullopt: the link limits), and the words of its basis.
struct DriveEstimate {
  MediumKind medium;
  std::optional<Bandwidth> rate;
  std::string what;    ///< "portable hard disk (rotational, bus-powered)", "SATA SSD behind ASMedia ASM1153E"
  std::string source;  ///< the rows' sources
};
/// The rules above over `f`; nullopt when the medium is unknown.
std::optional<DriveEstimate> estimate_medium(const MediumFacts& f);

}  // namespace usbsat::topology
