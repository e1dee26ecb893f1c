#pragma once
/// Published measurements of USB host controllers: what one drive alone moved on a stated setup (controller,
/// platform, PCIe link, drive, benchmark), each row with its source. The bandwidth model uses a row as a
/// ceiling where it is below the table's figure (tables.cpp): per storage protocol on the drive's own
/// link, and the row's best figure on the controller, which every drive behind it shares. Pure data and
/// one look-up; sources and how each row was chosen in topology/README.md.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "topology/capacity/basis.hpp"
#include "topology/model/node.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// PCI vendor and device ids, "1106:3483".
struct PciIds {
  std::uint16_t vendor = 0;
  std::uint16_t device = 0;
  bool operator==(const PciIds&) const = default;
};

/// One published measurement of a controller on a stated setup.
struct PublishedRow {
  PciIds controller;  ///< the xHCI's PCI ids
  /// A platform: a PCI function that must sit above the controller (the Raspberry Pi 4's BCM2711 root port
  /// 14e4:2711 under /sys/devices/platform/scb/fd500000.pcie); nullopt: any platform.
  std::optional<PciIds> behind;
  /// The controller's PCIe link in the setup (GT/s and width); 0: the source does not say, any link.
  double link_gts = 0;
  unsigned link_width = 0;
  std::optional<double> uas_mbs;  ///< one UAS drive alone
  std::optional<double> bot_mbs;  ///< one Bulk-Only drive alone
  std::string_view name;          ///< "VL805 on Raspberry Pi 4"
  std::string_view setup;         ///< the drive and benchmark: "SATA SSD in a UAS enclosure, hdparm"
  std::string_view source;  ///< "Jeff Geerling, \"Raspberry Pi USB boot, UASP, TRIM and performance\", 2020"
  bool operator==(const PublishedRow&) const = default;
};

/// The published rows (tables.cpp's nominal model holds a copy).
std::span<const PublishedRow> published_table();

/// The row that describes controller `c` of `t` in `rows`: its PCI ids, the platform function above it
/// (`behind`) and its PCIe link as the row's setup states them; nullptr when none does.
const PublishedRow* published_row_for(const Topology& t, Vertex c, std::span<const PublishedRow> rows);

/// The row's figure for one drive of protocol `p` (Bot: its BOT figure; anything else: its UAS one); nullopt
/// when the source gives none for that protocol.
std::optional<double> published_drive_mbs(const PublishedRow& r, StorageProtocol p);
/// The row's best figure: what the controller moved at all (the UAS figure, else the BOT one).
std::optional<double> published_controller_mbs(const PublishedRow& r);

/// The basis of a ceiling from row `r` at `mbs` for protocol `p` (None: the controller's, no protocol named):
/// kind Published, `what` "VL805 on Raspberry Pi 4, UAS ~297 MB/s", `source` the source and setup,
/// `model_mbs` the table's figure it replaced (`table_mbs`; nullopt: the table had none).
Basis published_basis(const PublishedRow& r, StorageProtocol p, double mbs, std::optional<double> table_mbs);

}  // namespace usbsat::topology
