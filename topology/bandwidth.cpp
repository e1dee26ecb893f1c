#include "topology/bandwidth.hpp"

#include <charconv>

#include <cctype>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "topology/describe.hpp"
#include "topology/pcie_tunnels.hpp"
#include "topology/string_table.hpp"
#include "topology/text.hpp"
#include "topology/usb4_tunnels.hpp"

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

std::string product_suffix(const Topology& t, Vertex v) {
  const std::string what = node_product(t, v);
  return what.empty() ? std::string{} : " (" + what + ")";
}

std::optional<Bandwidth> override_or(const CapacityModel& m, const std::string& id,
                                     std::optional<Bandwidth> v) {
  if (auto it = m.overrides_mbs.find(id); it != m.overrides_mbs.end()) return Bandwidth::from_mbs(it->second);
  return v;
}

const UsbCapacityRow* find_row(const CapacityModel& m, UsbRate r) {
  for (const auto& row : m.usb)
    if (row.rate == r) return &row;
  return nullptr;
}

/// The negotiated rate of a USB device's upstream link (hub or drive).
UsbRate usb_link_rate(const Topology& t, Vertex v) {
  const auto& info = t[v].as<UsbDeviceInfo>();
  std::optional<UsbSpeed> speed = info.speed;
  unsigned lanes = info.rx_lanes.value_or(1);
  if (auto e = uplink(t, v); e && t[*e].kind == LinkKind::Usb) {
    if (t[*e].usb_speed) speed = t[*e].usb_speed;
    lanes = std::max(lanes, t[*e].lanes);
  }
  return speed ? usb_rate(*speed, lanes) : UsbRate::Unknown;
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

constexpr StringTable<ResourceKind, 8> kResourceKindTokens{{{
    {ResourceKind::DriveLink, "drive_link"},
    {ResourceKind::HubUplink, "hub_uplink"},
    {ResourceKind::UsbBus, "usb_bus"},
    {ResourceKind::Controller, "controller"},
    {ResourceKind::PcieLink, "pcie_link"},
    {ResourceKind::Usb4Tunnel, "usb4_tunnel"},
    {ResourceKind::PcieTunnel, "pcie_tunnel"},
    {ResourceKind::Declared, "declared"},
}}};

std::string_view to_string(ResourceKind k) {
  return kResourceKindTokens.name(k, "unknown");
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

// ---- USB4 / Thunderbolt ----------------------------------------------------------------------------------
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

std::string_view to_string(Direction d) {
  return d == Direction::Write ? "write" : "read";
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

PcieLink controller_pcie_link(const Topology& t, Vertex c) {
  if (auto e = uplink(t, c); e && t[*e].kind == LinkKind::Pci && !t[*e].pcie.empty()) return t[*e].pcie;
  return t[c].as<ControllerInfo>().link;
}

std::string node_id(const Topology& t, Vertex v) {
  return std::string(node_name(t[v]));
}

std::string node_product(const Topology& t, Vertex v) {
  const Node& n = t[v];
  auto join = [](const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + " " + b;
  };
  if (const auto* c = n.get_if<ControllerInfo>()) return join(c->vendor_name, c->model_name);
  if (const auto* h = n.get_if<PciHopInfo>()) return join(h->vendor_name, h->model_name);
  if (const auto* d = n.get_if<UsbDeviceInfo>()) return d->product ? *d->product : d->model_name;
  if (const auto* r = n.get_if<RouterInfo>())
    return join(r->vendor_name.value_or(""), r->device_name.value_or(""));
  return {};
}

std::string resource_identity(const Topology& t, Vertex v) {
  auto ids = [](std::optional<std::uint16_t> a, std::optional<std::uint16_t> b) {
    return a && b ? format_vid_pid(*a, *b) : std::string{};
  };
  const Node& n = t[v];
  if (const auto* c = n.get_if<ControllerInfo>()) return ids(c->vendor_id, c->device_id);
  if (const auto* h = n.get_if<PciHopInfo>()) return ids(h->vendor_id, h->device_id);
  if (const auto* d = n.get_if<UsbDeviceInfo>()) return ids(d->vendor_id, d->product_id);
  if (const auto* r = n.get_if<RouterInfo>()) return ids(r->vendor_id, r->device_id);
  return {};
}

namespace {
Resource make_resource(const Topology& t, const CapacityModel& m, ResourceKind kind, Vertex v,
                       std::optional<Bandwidth> cap, std::string label,
                       std::optional<Basis> basis = std::nullopt) {
  Resource r;
  r.node = node_id(t, v);
  r.id = std::string(to_string(kind)) + ":" + r.node;
  r.kind = kind;
  r.vertex = v;
  r.capacity = override_or(m, r.id, cap);
  if (r.capacity == cap) r.capacity_basis = std::move(basis);
  if (auto it = m.calibrated.find(r.id);
      it != m.calibrated.end() && it->second.identity == resource_identity(t, v) && it->second.mbs > 0) {
    Basis b = it->second.basis;
    b.model_unlimited = !r.capacity;
    if (r.capacity) b.model_mbs = r.capacity->mbs();
    r.capacity = Bandwidth::from_mbs(it->second.mbs);
    r.capacity_basis = std::move(b);
  }
  r.label = std::move(label);
  return r;
}
/// The storage protocol of the interface between disk `block` and its USB device `dev`.
StorageProtocol storage_protocol(const Topology& t, Vertex block, Vertex dev) {
  StorageProtocol proto = StorageProtocol::None;
  for (std::optional<Vertex> cur = block; cur && *cur != dev; cur = parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<InterfaceInfo>()) proto = itf->storage;
  return proto;
}

/// The published row of the setup of `v` (a USB device, or the port a drive is planned on): its controller's.
const PublishedRow* published_row_at(const Topology& t, Vertex v, const CapacityModel& m) {
  const auto ctrl = controller_of(t, v);
  return ctrl ? published_row_for(t, *ctrl, m.published) : nullptr;
}

/// A drive link's ceiling: the table's figure `table`, or the published figure for one drive of protocol
/// `proto` on its controller's setup where that is lower (with its basis).
std::pair<std::optional<Bandwidth>, std::optional<Basis>> published_drive_ceiling(
    const Topology& t, Vertex dev, StorageProtocol proto, std::optional<Bandwidth> table,
    const CapacityModel& m) {
  const auto* row = published_row_at(t, dev, m);
  const auto mbs = row ? published_drive_mbs(*row, proto) : std::nullopt;
  if (!mbs || !table || table->mbs() <= *mbs) return {table, std::nullopt};
  return {Bandwidth::from_mbs(*mbs), published_basis(*row, proto, *mbs, table->mbs())};
}

/// The USB3 tunnel of every USB4 link `port` rides, innermost first (a hub chained behind a dock: the hub's
/// tunnel, then the dock's, which the dock's own drives share), each with its path-limited ceiling.
void usb4_tunnel_resources(const Topology& t, Vertex port, const CapacityModel& m,
                           std::vector<Resource>& out) {
  for (const auto& link : usb4_links_of(t, port))
    out.push_back(make_resource(t, m, ResourceKind::Usb4Tunnel, link.router,
                                m.direction == Direction::Write ? link.usb3_tunnel_write : link.usb3_tunnel,
                                "USB3 tunnel of the " + link.label));
}

}  // namespace

Resource drive_link_resource(const Topology& t, Vertex v, UsbRate rate, StorageProtocol proto,
                             const CapacityModel& m) {
  std::string label(to_string(rate));
  if (proto == StorageProtocol::Bot || proto == StorageProtocol::Uas)
    label += proto == StorageProtocol::Bot ? " BOT" : " UAS";
  auto [cap, basis] = published_drive_ceiling(t, v, proto, usb_drive_capacity(rate, proto, m), m);
  return make_resource(t, m, ResourceKind::DriveLink, v, cap,
                       label + " link of " + node_id(t, v) + product_suffix(t, v), std::move(basis));
}

std::vector<Resource> path_resources(const Topology& t, Vertex block, const CapacityModel& m) {
  std::vector<Resource> out;
  const auto dev = usb_device_of(t, block);
  if (!dev || t[*dev].kind != NodeKind::Device) return out;

  // 1. The drive's own link, by negotiated rate and the protocol of its storage interface.
  out.push_back(drive_link_resource(t, *dev, usb_link_rate(t, *dev), storage_protocol(t, block, *dev), m));

  // 2-5. Everything above the port the drive is plugged into.
  if (const auto port = parent(t, *dev)) {
    auto up = upstream_resources(t, *port, m);
    out.insert(out.end(), std::make_move_iterator(up.begin()), std::make_move_iterator(up.end()));
  }
  return out;
}

std::vector<Resource> upstream_resources(const Topology& t, Vertex port, const CapacityModel& m) {
  std::vector<Resource> out;
  auto add = [&](ResourceKind kind, Vertex v, std::optional<Bandwidth> cap, std::string label) {
    out.push_back(make_resource(t, m, kind, v, cap, std::move(label)));
  };
  // 2. Every hub above it, inner first: the hub's upstream link. The graph keeps the USB2 and USB3 halves of
  //    a hub as separate Hub vertices, so walking up from the drive passes through the half that carries it.
  std::optional<Vertex> cur = port;
  for (; cur && t[*cur].kind != NodeKind::RootHub && t[*cur].kind != NodeKind::Controller;
       cur = parent(t, *cur)) {
    if (t[*cur].kind != NodeKind::Hub) continue;
    const UsbRate r = usb_link_rate(t, *cur);
    add(ResourceKind::HubUplink, *cur, usb_shared_capacity(r, m),
        std::string(to_string(r)) + " uplink of hub " + node_id(t, *cur) + product_suffix(t, *cur));
  }

  // 2b. The USB3 tunnels of USB4 links the port rides (topology/usb4_tunnels): innermost first.
  usb4_tunnel_resources(t, port, m, out);

  // 3. The bus of an EHCI/OHCI/UHCI (or a SoC's USB 2.0 OTG) root hub: one schedule shared by every port of
  //    that root hub.
  const auto ctrl = controller_of(t, port);
  if (cur && t[*cur].kind == NodeKind::RootHub && ctrl) {
    const auto kind = t[*ctrl].as<ControllerInfo>().kind;
    if (kind == HcdKind::Ehci || kind == HcdKind::Ohci || kind == HcdKind::Uhci || kind == HcdKind::Otg) {
      const auto& rh = t[*cur].as<UsbDeviceInfo>();
      const bool high = kind == HcdKind::Ehci || kind == HcdKind::Otg;
      const UsbRate r = rh.speed ? usb_rate(*rh.speed, 1) : (high ? UsbRate::High : UsbRate::Full);
      add(ResourceKind::UsbBus, *cur, usb_shared_capacity(r, m),
          std::string(to_string(r)) + " bus " + node_id(t, *cur) + " (" + std::string(to_string(kind)) +
              ", shared by all its ports)");
    }
  }
  if (!ctrl) return out;

  // 4. The controller: no nominal internal limit (vendors publish none we could cite; chipset xHCIs sit on
  //    DMI, which the PCIe chain covers when it is visible), except a published measurement of it on the
  //    same setup (topology/published.hpp). A calibrated override may give it one.
  {
    std::optional<Bandwidth> cap;
    std::optional<Basis> basis;
    if (const auto* row = published_row_for(t, *ctrl, m.published))
      if (const auto mbs = published_controller_mbs(*row)) {
        cap = Bandwidth::from_mbs(*mbs);
        basis = published_basis(*row, StorageProtocol::None, *mbs, std::nullopt);
      }
    out.push_back(make_resource(
        t, m, ResourceKind::Controller, *ctrl, cap,
        controller_name(t[*ctrl].as<ControllerInfo>().kind, node_id(t, *ctrl)) + product_suffix(t, *ctrl),
        std::move(basis)));
  }

  // 5. PCIe: the controller's own link, then every hop above it up to the root port; the slowest one limits.
  auto add_pcie = [&](Vertex v, const PcieLink& l) {
    if (l.empty()) return;
    add(ResourceKind::PcieLink, v, pcie_capacity(l, m),
        pcie_link_text(l) + " link of " + node_id(t, v) + product_suffix(t, v));
  };
  add_pcie(*ctrl, controller_pcie_link(t, *ctrl));
  // 5b. A controller in a Thunderbolt dock: the PCIe tunnel replaces the two ends of the tunnelled link (the
  //     dock's switch upstream port and the host controller's downstream port), whose link attributes
  //     describe the routers' PCIe adapters, not what the tunnel moves.
  const auto tunnel = pcie_tunnel_of(t, *ctrl);
  for (Vertex hop : pcie_uplink(t, *ctrl)) {
    if (tunnel && hop == tunnel->entry)
      out.push_back(make_resource(t, m, ResourceKind::PcieTunnel, tunnel->router,
                                  pcie_tunnel_capacity(t, *tunnel, m), tunnel->label));
    if (tunnel && (hop == tunnel->entry || hop == tunnel->downstream)) continue;
    add_pcie(hop, t[hop].as<PciHopInfo>().link);
  }
  return out;
}

std::optional<Basis> published_for_drive(const Topology& t, Vertex block, const CapacityModel& m) {
  const auto dev = usb_device_of(t, block);
  if (!dev || t[*dev].kind != NodeKind::Device) return std::nullopt;
  const auto* row = published_row_at(t, *dev, m);
  if (!row) return std::nullopt;
  const StorageProtocol proto = storage_protocol(t, block, *dev);
  const auto mbs = published_drive_mbs(*row, proto);
  if (!mbs) return std::nullopt;
  const auto table = usb_drive_capacity(usb_link_rate(t, *dev), proto, m);
  return published_basis(*row, proto, *mbs, table ? std::optional(table->mbs()) : std::nullopt);
}

std::optional<Bandwidth> drive_link_capacity(const Topology& t, Vertex block, const CapacityModel& m) {
  for (const auto& r : path_resources(t, block, m))
    if (r.kind == ResourceKind::DriveLink) return r.capacity;
  return std::nullopt;
}

namespace {
bool iequals_ascii(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::optional<Bandwidth> parse_rate(std::string_view s) {
  s = trim(s);
  // Unit suffix: an optional "B/s", "B" or "/s" after K/M/G (case-insensitive).
  for (std::string_view tail : {"b/s", "/s", "b"})
    if (s.size() > tail.size() && iequals_ascii(s.substr(s.size() - tail.size()), tail)) {
      s.remove_suffix(tail.size());
      break;
    }
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double mult = 0;
  switch (std::tolower(static_cast<unsigned char>(s.back()))) {
    case 'k':
      mult = 1e3;
      break;
    case 'm':
      mult = 1e6;
      break;
    case 'g':
      mult = 1e9;
      break;
    default:
      mult = std::isdigit(static_cast<unsigned char>(s.back())) ? 1e6 : 0;  // a bare number is MB/s
  }
  if (mult == 0) return std::nullopt;
  if (!std::isdigit(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  s = trim(s);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  // Beyond any link (1e15 B/s) the rate saturates instead of overflowing the conversion: a caller's range
  // check then refuses "1e30" as out of range by name, where nullopt would call it garbage.
  if (v * mult > 1e15) return Bandwidth::from_bytes_per_s(std::numeric_limits<std::uint64_t>::max());
  // Below half a byte per second ("1e-7") it would round to a zero rate: it saturates at the smallest one (1
  // B/s) instead, so a caller's range check names it out of range, as for the largest.
  return Bandwidth::from_bytes_per_s(
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(v * mult))));
}

}  // namespace usbsat::topology
