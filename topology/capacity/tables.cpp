#include "topology/capacity/tables.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "topology/base/string_table.hpp"

namespace usbsat::topology {
namespace {

// ---- The capacity table ----------------------------------------------------------------------------------
// Payload MB/s (10^6 B/s). `bot`/`uas` are what ONE drive achieves on a link of that rate with that protocol
// (sequential 128 KiB reads); `shared` is the link or bus itself, whatever the protocol, used for hub uplinks
// and the single bus of an EHCI/OHCI/UHCI root hub. Rows marked "estimate" have no measurement behind them
// yet: a calibration run should replace them (CapacityModel is a copy of this table, not a set of constants).
constexpr std::array kUsbTable{
    UsbCapacityRow{UsbRate::Low, 0.0008, 0.0008, 0.0008,
                   "USB 2.0 spec 5.7.4: low speed has no bulk endpoints; interrupt 8 B per 10 ms = 800 B/s"},
    UsbCapacityRow{
        UsbRate::Full, 1.0, 1.0, 1.2,
        "USB 2.0 spec table 5-9: 19 x 64 B bulk per 1 ms frame = 1.216 MB/s; ~1 MB/s measured with BOT"},
    UsbCapacityRow{UsbRate::High, 40, 40, 40,
                   "USB 2.0 spec table 5-10: 13 x 512 B per 125 us microframe = 53.2 MB/s theoretical; EHCI "
                   "scheduling and BOT round trips give 35-43 MB/s per bus in practice (~40)"},
    UsbCapacityRow{
        UsbRate::Gen1, 310, 400, 400,
        "5 Gb/s, 8b/10b = 500 MB/s raw; packet headers, link commands and flow control leave ~400-450; "
        "measured UAS 360-430, BOT 300-320 (one command in flight)"},
    UsbCapacityRow{
        UsbRate::Gen1x2, 620, 800, 800,
        "estimate: 2 lanes x Gen 1 (1000 MB/s raw) with Gen 1's 80% payload; BOT scaled by Gen 1's 310/400"},
    UsbCapacityRow{UsbRate::Gen2, 775, 1000, 1000,
                   "10 Gb/s, 128b/132b = 1212 MB/s raw; ~1000-1050 measured with UAS NVMe bridges; BOT is an "
                   "estimate scaled by Gen 1's 310/400"},
    UsbCapacityRow{
        UsbRate::Gen2x2, 1550, 2000, 2000,
        "20 Gb/s, 128b/132b = 2424 MB/s raw; ~2000 measured with Gen 2x2 NVMe enclosures; BOT estimate"},
    UsbCapacityRow{UsbRate::Usb4, 1550, 2000, 2000,
                   "upper bound: USB4 tunnels USB 3.2 traffic at no more than Gen 2x2 rates; estimate"},
};

// Per-lane payload after line encoding (PCIe base spec): 8b/10b for Gen 1/2, 128b/130b for Gen 3-5, and
// FLIT mode (236 of 256 bytes usable) for Gen 6.
constexpr std::array kPcieTable{
    PcieCapacityRow{1, 2.5, 250.0, "2.5 GT/s x 8b/10b / 8 = 250 MB/s per lane"},
    PcieCapacityRow{2, 5.0, 500.0, "5 GT/s x 8b/10b / 8 = 500 MB/s per lane"},
    PcieCapacityRow{3, 8.0, 984.6, "8 GT/s x 128b/130b / 8 = 984.6 MB/s per lane"},
    PcieCapacityRow{4, 16.0, 1969.2, "16 GT/s x 128b/130b / 8 = 1969.2 MB/s per lane"},
    PcieCapacityRow{5, 32.0, 3938.5, "32 GT/s x 128b/130b / 8 = 3938.5 MB/s per lane"},
    PcieCapacityRow{6, 64.0, 7375.0, "64 GT/s PAM4 FLIT mode, 236/256 bytes usable = 7375 MB/s per lane"},
};

// PCIe protocol efficiency: consumer add-in USB cards use a 128-byte Max Payload Size. Each TLP adds a 12-16
// B header plus ~8 B of framing, sequence number and LCRC (128 / (128 + 24) = 0.84), and ACK/flow-control
// DLLPs, read requests and the xHCI's descriptor/doorbell traffic take a few percent more: ~0.80. This
// matches the ~390-400 MB/s that ASM1042/EJ168/uPD720200-class cards reach on a PCIe 2.0 x1 link (500 MB/s
// raw).
constexpr double kPcieEfficiency = 0.80;

const UsbCapacityRow* find_row(const CapacityModel& m, UsbRate r) {
  for (const auto& row : m.usb)
    if (row.rate == r) return &row;
  return nullptr;
}

}  // namespace

UsbRate usb_rate(UsbSpeed speed, unsigned lanes) {
  switch (speed) {
    case UsbSpeed::Low:
      return UsbRate::Low;
    case UsbSpeed::Full:
      return UsbRate::Full;
    case UsbSpeed::High:
    case UsbSpeed::Wireless:
      return UsbRate::High;
    case UsbSpeed::Super:
      return UsbRate::Gen1;
    // The kernel reports "10000" for both Gen 2x1 and Gen 1x2; the lane count tells them apart.
    case UsbSpeed::SuperPlus:
      return lanes >= 2 ? UsbRate::Gen1x2 : UsbRate::Gen2;
    case UsbSpeed::SuperPlus2x2:
      return UsbRate::Gen2x2;
    case UsbSpeed::Usb4_40:
    case UsbSpeed::Usb4_80:
      return UsbRate::Usb4;
    case UsbSpeed::Unknown:
      break;
  }
  return UsbRate::Unknown;
}

constexpr StringTable<UsbRate, 8> kUsbRateNames{{{
    {UsbRate::Low, "USB 1.1 low speed"},
    {UsbRate::Full, "USB 1.1"},
    {UsbRate::High, "USB 2.0"},
    {UsbRate::Gen1, "USB 3.2 Gen 1"},
    {UsbRate::Gen1x2, "USB 3.2 Gen 1x2"},
    {UsbRate::Gen2, "USB 3.2 Gen 2"},
    {UsbRate::Gen2x2, "USB 3.2 Gen 2x2"},
    {UsbRate::Usb4, "USB4"},
}}};

std::string_view to_string(UsbRate r) {
  return kUsbRateNames.name(r, "USB (unknown speed)");
}

const CapacityModel& nominal_model() {
  static const CapacityModel kModel{
      std::vector<UsbCapacityRow>(kUsbTable.begin(), kUsbTable.end()),
      std::vector<PcieCapacityRow>(kPcieTable.begin(), kPcieTable.end()),
      kPcieEfficiency,
      {},
      {},
      std::vector<PublishedRow>(published_table().begin(), published_table().end()),
  };
  return kModel;
}

std::span<const UsbCapacityRow> usb_capacity_table() {
  return kUsbTable;
}
std::span<const PcieCapacityRow> pcie_capacity_table() {
  return kPcieTable;
}

std::optional<Bandwidth> usb_drive_capacity(UsbRate rate, StorageProtocol p, const CapacityModel& m) {
  const auto* row = find_row(m, rate);
  if (!row) return std::nullopt;
  return Bandwidth::from_mbs(p == StorageProtocol::Bot ? row->bot_mbs : row->uas_mbs);
}

std::optional<Bandwidth> usb_shared_capacity(UsbRate rate, const CapacityModel& m) {
  const auto* row = find_row(m, rate);
  if (!row) return std::nullopt;
  return Bandwidth::from_mbs(row->shared_mbs);
}

std::optional<Bandwidth> pcie_capacity(const PcieLink& link, const CapacityModel& m) {
  const auto gts = link.speed_gts ? link.speed_gts : link.max_speed_gts;
  const auto width = link.width ? link.width : link.max_width;
  if (!gts || !width) return std::nullopt;
  for (const auto& row : m.pcie)
    if (std::fabs(row.gts - *gts) < 0.01)
      return Bandwidth::from_mbs(row.lane_mbs * *width * m.pcie_efficiency);
  return std::nullopt;
}

std::string_view to_string(Direction d) {
  return d == Direction::Write ? "write" : "read";
}

}  // namespace usbsat::topology
