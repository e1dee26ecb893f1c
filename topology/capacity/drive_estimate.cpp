// The media and bridge tables behind a drive's estimated demand, and the rules that read them
// (drive_estimate.hpp).
#include "topology/capacity/drive_estimate.hpp"

#include <array>

#include <fmt/format.h>

namespace usbsat::topology {
namespace {

// Sustained sequential rates, MB/s (10^6 B/s), the best a drive of the kind streams (outer tracks for a
// disk).
constexpr std::array kMedia{
    MediumRow{MediumKind::PortableHdd, 140.0,
              "Seagate BarraCuda 2.5\" (5400 rpm, the disk of most portable enclosures) datasheet: max "
              "sustained transfer rate OD 140 MB/s; WD My Passport and Toshiba Canvio measure 100-140"},
    MediumRow{
        MediumKind::DesktopHdd, 190.0,
        "Seagate BarraCuda 3.5\" ST4000DM004 (5400 rpm class) datasheet: max sustained transfer rate OD "
        "190 MB/s; desktop enclosures' 5400-7200 rpm disks stream 150-250"},
    MediumRow{
        MediumKind::SataSsd, 540.0,
        "SATA 6 Gb/s moves 600 MB/s after 8b/10b; SATA SSDs are rated 540-560 MB/s (Samsung Portable SSD "
        "T5 datasheet: up to 540 MB/s; Samsung 870 EVO: 560 MB/s)"},
    MediumRow{MediumKind::NvmeSsd, std::nullopt,
              "NVMe SSDs read 2000-7000 MB/s, more than any USB link moves: the link is the limit"},
};

// USB ids: usb.ids as the udev hwdb ships it (/usr/lib/udev/hwdb.d/20-usb-vendor-model.hwdb), which names
// the chip and its SATA or PCIe side. SCSI vendor/model: what the bridges' firmware reports in INQUIRY.
constexpr std::string_view kUsbIds = "usb.ids (udev hwdb 20-usb-vendor-model)";
constexpr std::array kBridges{
    BridgeRow{0x174c, 0x55aa, {}, {}, BridgeKind::Sata, "ASMedia ASM1051E/ASM1053E/ASM1153E", kUsbIds},
    BridgeRow{0x174c, 0x1153, {}, {}, BridgeKind::Sata, "ASMedia ASM1153", kUsbIds},
    BridgeRow{0x152d, 0x0578, {}, {}, BridgeKind::Sata, "JMicron JMS578", kUsbIds},
    BridgeRow{0x152d, 0x0562, {}, {}, BridgeKind::Sata, "JMicron JMS567", kUsbIds},
    BridgeRow{0x152d, 0x0567, {}, {}, BridgeKind::Sata, "JMicron JMS567", kUsbIds},
    BridgeRow{0x152d, 0x0576, {}, {}, BridgeKind::Sata, "JMicron Gen1 SATA 6Gb/s bridge", kUsbIds},
    BridgeRow{0x152d, 0x2329, {}, {}, BridgeKind::Sata, "JMicron JM20329", kUsbIds},
    BridgeRow{0x2109, 0x0711, {}, {}, BridgeKind::Sata, "VIA VL711", kUsbIds},
    BridgeRow{0x2109, 0x0715, {}, {}, BridgeKind::Sata, "VIA VL817 SATA adaptor", kUsbIds},
    BridgeRow{0x1f75, 0x0621, {}, {}, BridgeKind::Sata, "Innostor IS621", kUsbIds},
    BridgeRow{0x04e8,
              0x61f5,
              {},
              {},
              BridgeKind::Sata,
              "Samsung Portable SSD T5 (mSATA SSD, ASMedia bridge)",
              "usb.ids names the product; Samsung's T5 datasheet: SATA-based, up to 540 MB/s"},
    BridgeRow{0x152d, 0x0583, {}, {}, BridgeKind::Nvme, "JMicron JMS583 (PCIe Gen3 x2)", kUsbIds},
    BridgeRow{0x0bda, 0x9210, {}, {}, BridgeKind::Nvme, "Realtek RTL9210 (M.2 NVMe)", kUsbIds},
    BridgeRow{0, 0, "ASMT", "2115", BridgeKind::Sata, "ASMedia ASM1153E/ASM1051E",
              "ASMedia's SATA bridge firmware reports SCSI vendor ASMT, model 2115"},
    BridgeRow{0, 0, "ASMT", "2105", BridgeKind::Sata, "ASMedia ASM1053E/ASM1051",
              "ASMedia's SATA bridge firmware reports SCSI vendor ASMT, model 2105"},
    BridgeRow{0, 0, "Realtek", "RTL9210", BridgeKind::Nvme, "Realtek RTL9210 (M.2 NVMe)",
              "the RTL9210's firmware reports SCSI vendor Realtek, model RTL9210 NVME"},
};

const MediumRow& medium_row(MediumKind k) {
  for (const auto& r : kMedia)
    if (r.kind == k) return r;
  return kMedia.front();
}

DriveEstimate estimate_of(MediumKind k, std::string what) {
  const auto& row = medium_row(k);
  DriveEstimate e{k, std::nullopt, std::move(what), std::string(row.source)};
  if (row.mbs) e.rate = Bandwidth::from_mbs(*row.mbs);
  return e;
}

}  // namespace

std::string_view to_string(MediumKind k) {
  switch (k) {
    case MediumKind::PortableHdd:
      return "portable hard disk";
    case MediumKind::DesktopHdd:
      return "desktop hard disk";
    case MediumKind::SataSsd:
      return "SATA SSD";
    case MediumKind::NvmeSsd:
      return "NVMe SSD";
  }
  return "portable hard disk";
}

std::span<const MediumRow> medium_table() {
  return kMedia;
}
std::span<const BridgeRow> bridge_table() {
  return kBridges;
}

const BridgeRow* find_bridge(std::optional<std::uint16_t> vendor_id, std::optional<std::uint16_t> product_id,
                             const std::optional<std::string>& scsi_vendor,
                             const std::optional<std::string>& scsi_model) {
  if (vendor_id && product_id)
    for (const auto& r : kBridges)
      if (r.vendor_id != 0 && r.vendor_id == *vendor_id && r.product_id == *product_id) return &r;
  if (scsi_vendor && scsi_model)
    for (const auto& r : kBridges)
      if (r.vendor_id == 0 && *scsi_vendor == r.scsi_vendor && scsi_model->starts_with(r.scsi_model_prefix))
        return &r;
  return nullptr;
}

MediumFacts medium_facts(const Topology& t, Vertex block) {
  MediumFacts f;
  const auto* b = t[block].get_if<BlockInfo>();
  if (!b) return f;
  f.rotational = b->rotational;
  f.removable = b->removable;
  f.scsi_vendor = b->vendor;
  f.scsi_model = b->model;
  const auto dev = usb_device_of(t, block);
  for (std::optional<Vertex> cur = block; cur && cur != dev; cur = parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<InterfaceInfo>()) f.protocol = itf->storage;
  if (dev)
    if (const auto* u = t[*dev].get_if<UsbDeviceInfo>()) {
      f.max_power_ma = u->max_power_ma;
      f.vendor_id = u->vendor_id;
      f.product_id = u->product_id;
    }
  return f;
}

std::optional<DriveEstimate> estimate_medium(const MediumFacts& f) {
  if (!f.rotational) return std::nullopt;
  if (*f.rotational) {
    // A removable medium on Bulk-Only: "rotational" is the kernel's default (no VPD page read), not a disk.
    if (f.protocol != StorageProtocol::Uas && f.removable.value_or(false)) return std::nullopt;
    const bool own_power = f.max_power_ma && *f.max_power_ma <= 100;
    return own_power ? estimate_of(MediumKind::DesktopHdd, "desktop hard disk (rotational, self-powered)")
                     : estimate_of(MediumKind::PortableHdd, "portable hard disk (rotational, bus-powered)");
  }
  const auto* bridge = find_bridge(f.vendor_id, f.product_id, f.scsi_vendor, f.scsi_model);
  if (!bridge) return std::nullopt;
  const bool sata = bridge->kind == BridgeKind::Sata;
  auto e = estimate_of(sata ? MediumKind::SataSsd : MediumKind::NvmeSsd,
                       fmt::format("{} behind {}", sata ? "SATA SSD" : "NVMe SSD", bridge->chip));
  e.source = fmt::format("{}; bridge: {}", e.source, bridge->source);
  return e;
}

}  // namespace usbsat::topology
