#include "topology/capacity/published.hpp"

#include <array>
#include <cmath>

#include "topology/capacity/bandwidth.hpp"

namespace usbsat::topology {
namespace {

// ---- Published measurements -------------------------------------------------------------------------------
// Only figures with a stated setup (controller, PCIe link, drive, benchmark) are taken; each is what ONE
// drive moved alone, sequential reads. Rows are matched by the controller's PCI ids, the platform above it
// and the PCIe link the source names (topology/README.md, "Published measurements").
constexpr std::array kPublished{
    // Raspberry Pi 4: the VL805 sits on the BCM2711's single PCIe 2.0 lane (root port 14e4:2711 below
    // /sys/devices/platform/scb/fd500000.pcie). hdparm -t of a Kingston SATA SSD in an Inateck UAS
    // enclosure: 296.71 MB/s with UAS, 172.13 MB/s with the same drive forced to usb-storage (BOT).
    PublishedRow{{0x1106, 0x3483},
                 PciIds{0x14E4, 0x2711},
                 5.0,
                 1,
                 297,
                 172,
                 "VL805 on Raspberry Pi 4",
                 "Kingston SATA SSD in an Inateck UAS enclosure (BOT: UAS off), hdparm",
                 "Jeff Geerling, \"Raspberry Pi USB boot, UASP, TRIM and performance\", 2020"},
    // Renesas uPD720201 on a PCIe 5 GT/s link, Crucial RealSSD behind a Renesas uPD720230 USB-SATA bridge,
    // CrystalDiskMark 3 sequential read: up to 369.2 MB/s with UAS. The BOT figure is not given as a number
    // ("significantly better than 250 MB/s"), so the row has none.
    PublishedRow{{0x1912, 0x0014},
                 std::nullopt,
                 5.0,
                 1,
                 369,
                 std::nullopt,
                 "uPD720201 on PCIe 2.0 x1",
                 "Crucial SSD behind a uPD720230 bridge, CrystalDiskMark sequential read",
                 "Electronic Design, \"What's the difference between USB UASP and BOT\""},
    // ASMedia ASM1142 on one PCIe 3.0 lane, SanDisk Extreme 900 (USB 3.1 Gen 2), Iometer: about 870 MB/s.
    PublishedRow{{0x1B21, 0x1242},
                 std::nullopt,
                 8.0,
                 1,
                 870,
                 std::nullopt,
                 "ASM1142 on PCIe 3.0 x1",
                 "SanDisk Extreme 900, Iometer sequential read",
                 "heise online, \"USB 3.1 SuperSpeedPlus mit ueber 1 GByte/s\", Feb 2017"},
    // ASMedia ASM2142 on PCIe 3.0 x2, the same drive and benchmark: up to 1100 MB/s.
    PublishedRow{{0x1B21, 0x2142},
                 std::nullopt,
                 8.0,
                 2,
                 1100,
                 std::nullopt,
                 "ASM2142 on PCIe 3.0 x2",
                 "SanDisk Extreme 900, Iometer sequential read",
                 "heise online, \"USB 3.1 SuperSpeedPlus mit ueber 1 GByte/s\", Feb 2017"},
};

std::optional<PciIds> ids_of(const Node& n) {
  if (const auto* c = n.get_if<ControllerInfo>(); c && c->vendor_id && c->device_id)
    return PciIds{*c->vendor_id, *c->device_id};
  if (const auto* h = n.get_if<PciHopInfo>(); h && h->vendor_id && h->device_id)
    return PciIds{*h->vendor_id, *h->device_id};
  return std::nullopt;
}

bool behind(const Topology& t, Vertex c, const PciIds& ids) {
  for (auto p = parent(t, c); p; p = parent(t, *p))
    if (ids_of(t[*p]) == ids) return true;
  return false;
}

bool link_matches(const PublishedRow& r, const PcieLink& l) {
  if (r.link_gts == 0 || r.link_width == 0) return true;
  const auto gts = l.speed_gts ? l.speed_gts : l.max_speed_gts;
  const auto width = l.width ? l.width : l.max_width;
  return gts && width && std::fabs(*gts - r.link_gts) < 0.01 && *width == r.link_width;
}

}  // namespace

std::span<const PublishedRow> published_table() {
  return kPublished;
}

const PublishedRow* published_row_for(const Topology& t, Vertex c, std::span<const PublishedRow> rows) {
  const auto ids = ids_of(t[c]);
  if (!ids || t[c].kind != NodeKind::Controller) return nullptr;
  for (const auto& r : rows)
    if (r.controller == *ids && (!r.behind || behind(t, c, *r.behind)) &&
        link_matches(r, controller_pcie_link(t, c)))
      return &r;
  return nullptr;
}

std::optional<double> published_drive_mbs(const PublishedRow& r, StorageProtocol p) {
  return p == StorageProtocol::Bot ? r.bot_mbs : r.uas_mbs;
}

std::optional<double> published_controller_mbs(const PublishedRow& r) {
  return r.uas_mbs ? r.uas_mbs : r.bot_mbs;
}

Basis published_basis(const PublishedRow& r, StorageProtocol p, double mbs, std::optional<double> table_mbs) {
  Basis b{BasisKind::Published};
  b.what = std::string(r.name);
  b.source = std::string(r.source) + "; " + std::string(r.setup);
  if (p == StorageProtocol::Bot || p == StorageProtocol::Uas)
    b.where = p == StorageProtocol::Bot ? "BOT" : "UAS";
  b.figure_mbs = mbs;
  b.model_mbs = table_mbs;
  b.model_unlimited = !table_mbs;
  return b;
}

}  // namespace usbsat::topology
