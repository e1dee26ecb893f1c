#include <doctest/doctest.h>

#include <limits>

#include "tests/support/machines.hpp"
#include "topology/capacity/bandwidth.hpp"

using namespace usbsat::topology;
using namespace usbsat::testing;

namespace {
std::vector<std::string> ids(const std::vector<Resource>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.id);
  return out;
}
double cap(const Resource& r) {
  return r.capacity ? r.capacity->mbs() : -1;
}
}  // namespace

TEST_CASE("Bandwidth: named constructors, accessors, comparisons and saturating arithmetic") {
  CHECK(Bandwidth::from_mbs(40).bytes_per_s == 40'000'000);
  CHECK(Bandwidth::from_mbit(480).mbs() == doctest::Approx(60));
  CHECK(Bandwidth::from_mbs(-3).is_zero());
  // Absurd input (4294967295 lanes × 4294967295 Gb/s) saturates instead of overflowing (UBSan:
  // float→unsigned).
  CHECK(Bandwidth::from_mbs(4294967295.0 * 4294967295.0 * 1000).bytes_per_s == UINT64_MAX);
  CHECK(Bandwidth::from_mbs(1e300).bytes_per_s == UINT64_MAX);
  CHECK(Bandwidth::from_mbs(std::numeric_limits<double>::infinity()).bytes_per_s == UINT64_MAX);
  CHECK(Bandwidth::from_mbs(std::numeric_limits<double>::quiet_NaN()).is_zero());
  CHECK(Bandwidth::from_mbs(1.216).bytes_per_s == 1'216'000);
  CHECK(Bandwidth::from_mbs(310) < Bandwidth::from_mbs(400));
  CHECK(Bandwidth::from_mbs(400) == Bandwidth::from_bytes_per_s(400'000'000));
  CHECK((Bandwidth::from_mbs(100) + Bandwidth::from_mbs(50)).mbs() == doctest::Approx(150));
  CHECK((Bandwidth::from_mbs(50) - Bandwidth::from_mbs(100)) == Bandwidth::zero());
  CHECK((Bandwidth::from_mbs(500) * 0.8).mbs() == doctest::Approx(400));
}

TEST_CASE("usb_rate tells Gen 1x2 from Gen 2 by the lane count") {
  CHECK(usb_rate(UsbSpeed::High, 1) == UsbRate::High);
  CHECK(usb_rate(UsbSpeed::Wireless, 1) == UsbRate::High);
  CHECK(usb_rate(UsbSpeed::Super, 1) == UsbRate::Gen1);
  CHECK(usb_rate(UsbSpeed::SuperPlus, 1) == UsbRate::Gen2);
  CHECK(usb_rate(UsbSpeed::SuperPlus, 2) == UsbRate::Gen1x2);
  CHECK(usb_rate(UsbSpeed::SuperPlus2x2, 2) == UsbRate::Gen2x2);
  CHECK(usb_rate(UsbSpeed::Unknown, 1) == UsbRate::Unknown);
  CHECK(to_string(UsbRate::Gen1) == "USB 3.2 Gen 1");
}

TEST_CASE("the USB table: figures of the issue, protocol matters, every row sourced and sane") {
  struct Row {
    UsbRate rate;
    StorageProtocol proto;
    double mbs;
  };
  const Row rows[] = {
      {UsbRate::Full, StorageProtocol::Bot, 1.0},    {UsbRate::High, StorageProtocol::Bot, 40},
      {UsbRate::Gen1, StorageProtocol::Bot, 310},    {UsbRate::Gen1, StorageProtocol::Uas, 400},
      {UsbRate::Gen1, StorageProtocol::None, 400},   {UsbRate::Gen2, StorageProtocol::Uas, 1000},
      {UsbRate::Gen2x2, StorageProtocol::Uas, 2000},
  };
  for (const auto& r : rows) {
    CAPTURE(to_string(r.rate));
    CAPTURE(to_string(r.proto));
    REQUIRE(usb_drive_capacity(r.rate, r.proto));
    CHECK(usb_drive_capacity(r.rate, r.proto)->mbs() == doctest::Approx(r.mbs));
  }
  CHECK_FALSE(usb_drive_capacity(UsbRate::Unknown, StorageProtocol::Uas));
  CHECK(usb_shared_capacity(UsbRate::High)->mbs() == doctest::Approx(40));
  CHECK(usb_shared_capacity(UsbRate::Full)->mbs() == doctest::Approx(1.2));

  double previous = 0;
  for (const auto& row : usb_capacity_table()) {
    CAPTURE(to_string(row.rate));
    CHECK_FALSE(row.source.empty());
    CHECK(row.bot_mbs <= row.uas_mbs);     // BOT never beats UAS on the same link
    CHECK(row.uas_mbs <= row.shared_mbs);  // one drive never beats the link it is on
    CHECK(row.shared_mbs >= previous);     // faster rates never carry less
    previous = row.shared_mbs;
  }
}

TEST_CASE("the USB table, every row pinned: one drive by protocol and the shared link") {
  // Literal figures, each with the source the table cites, so a changed row fails here and not only a
  // monotonic invariant. {rate, BOT, UAS, shared} in MB/s.
  struct Row {
    UsbRate rate;
    double bot, uas, shared;
  };
  const Row rows[] = {
      // USB 2.0 spec 5.7.4: no bulk endpoints at low speed; interrupt 8 B per 10 ms = 800 B/s.
      {UsbRate::Low, 0.0008, 0.0008, 0.0008},
      // USB 2.0 spec table 5-9: 19 x 64 B per 1 ms frame = 1.216 MB/s; ~1 MB/s measured with BOT.
      {UsbRate::Full, 1.0, 1.0, 1.2},
      // USB 2.0 spec table 5-10: 53.2 MB/s theoretical; EHCI scheduling and BOT give 35-43 (~40).
      {UsbRate::High, 40, 40, 40},
      // 5 Gb/s 8b/10b = 500 MB/s raw; measured UAS 360-430, BOT 300-320.
      {UsbRate::Gen1, 310, 400, 400},
      // Estimate: 2 lanes x Gen 1 with Gen 1's 80% payload; BOT scaled by 310/400.
      {UsbRate::Gen1x2, 620, 800, 800},
      // 10 Gb/s 128b/132b = 1212 MB/s raw; ~1000-1050 measured with UAS NVMe bridges; BOT scaled.
      {UsbRate::Gen2, 775, 1000, 1000},
      // 20 Gb/s 128b/132b = 2424 MB/s raw; ~2000 measured with Gen 2x2 enclosures; BOT estimate.
      {UsbRate::Gen2x2, 1550, 2000, 2000},
      // Upper bound: USB4 tunnels USB 3.2 at no more than Gen 2x2 rates; estimate.
      {UsbRate::Usb4, 1550, 2000, 2000},
  };
  const auto table = usb_capacity_table();
  REQUIRE(table.size() == std::size(rows));
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& r = rows[i];
    CAPTURE(to_string(r.rate));
    CHECK(table[i].rate == r.rate);
    CHECK(table[i].bot_mbs == doctest::Approx(r.bot));
    CHECK(table[i].uas_mbs == doctest::Approx(r.uas));
    CHECK(table[i].shared_mbs == doctest::Approx(r.shared));
    // The queries read the same row.
    CHECK(usb_drive_capacity(r.rate, StorageProtocol::Bot)->mbs() == doctest::Approx(r.bot));
    CHECK(usb_drive_capacity(r.rate, StorageProtocol::Uas)->mbs() == doctest::Approx(r.uas));
    CHECK(usb_shared_capacity(r.rate)->mbs() == doctest::Approx(r.shared));
  }
}

TEST_CASE("the PCIe table, every row pinned: payload per lane, and x1 capacity at 80% efficiency") {
  struct Row {
    unsigned generation;
    double gts, lane_mbs, x1_mbs;
  };
  const Row rows[] = {
      {1, 2.5, 250.0, 200.0},      // 2.5 GT/s x 8b/10b / 8
      {2, 5.0, 500.0, 400.0},      // 5 GT/s x 8b/10b / 8
      {3, 8.0, 984.6, 787.68},     // 8 GT/s x 128b/130b / 8
      {4, 16.0, 1969.2, 1575.36},  // 16 GT/s x 128b/130b / 8
      {5, 32.0, 3938.5, 3150.8},   // 32 GT/s x 128b/130b / 8
      {6, 64.0, 7375.0, 5900.0},   // 64 GT/s PAM4 FLIT mode, 236/256 bytes usable
  };
  const auto table = pcie_capacity_table();
  REQUIRE(table.size() == std::size(rows));
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row& r = rows[i];
    CAPTURE(r.generation);
    CHECK(table[i].generation == r.generation);
    CHECK(table[i].gts == doctest::Approx(r.gts));
    CHECK(table[i].lane_mbs == doctest::Approx(r.lane_mbs));
    CHECK(pcie_capacity(pcie(r.gts, 1))->mbs() == doctest::Approx(r.x1_mbs).epsilon(0.0005));
    CHECK(pcie_capacity(pcie(r.gts, 4))->mbs() == doctest::Approx(4 * r.x1_mbs).epsilon(0.0005));
  }
}

TEST_CASE("PCIe capacity: per-lane payload x width x efficiency, current link speed and width") {
  CHECK(pcie_capacity(pcie(5.0, 1))->mbs() == doctest::Approx(400));  // PCIe 2.0 x1
  CHECK(pcie_capacity(pcie(2.5, 1))->mbs() == doctest::Approx(200));  // PCIe 1.x x1
  CHECK(pcie_capacity(pcie(8.0, 4))->mbs() == doctest::Approx(3150.7).epsilon(0.001));
  CHECK(pcie_capacity(pcie(16.0, 1))->mbs() == doctest::Approx(1575.4).epsilon(0.001));
  // A Gen 3 x4 card trained at Gen 1 x1: the current link counts, not the maximum.
  CHECK(pcie_capacity(PcieLink{2.5, 1, 8.0, 4})->mbs() == doctest::Approx(200));
  // Only the maxima known (old kernels): they are the best estimate there is.
  CHECK(pcie_capacity(PcieLink{std::nullopt, std::nullopt, 5.0, 1})->mbs() == doctest::Approx(400));
  CHECK_FALSE(pcie_capacity(PcieLink{}));
  CHECK_FALSE(pcie_capacity(PcieLink{7.0, 1, std::nullopt, std::nullopt}));  // no such generation
  for (const auto& row : pcie_capacity_table()) CHECK_FALSE(row.source.empty());
}

TEST_CASE("path_resources: ASM1042 card, drive link, controller and both PCIe hops") {
  const Topology t = asm1042_card();
  const auto rs = path_resources(t, block(t, "sda"));
  CHECK(ids(rs) == std::vector<std::string>{"drive_link:4-1", "controller:0000:03:00.0",
                                            "pcie_link:0000:03:00.0", "pcie_link:0000:00:1c.4"});
  CHECK(rs[0].kind == ResourceKind::DriveLink);
  CHECK(cap(rs[0]) == doctest::Approx(400));
  CHECK(rs[0].label == "USB 3.2 Gen 1 UAS link of 4-1 (Expansion HDD)");
  CHECK_FALSE(rs[1].capacity);  // no nominal controller limit
  CHECK(rs[1].label ==
        "xHCI controller 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host Controller)");
  CHECK(cap(rs[2]) == doctest::Approx(400));
  CHECK(
      rs[2].label ==
      "PCIe 5 GT/s x1 link of 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host Controller)");
  CHECK(rs[2].vertex == t.find_by_name("0000:03:00.0"));

  const Topology bot = asm1042_card(StorageProtocol::Bot);
  CHECK(drive_link_capacity(bot, block(bot, "sdb"))->mbs() == doctest::Approx(310));
  CHECK(path_resources(bot, block(bot, "sdb"))[0].label == "USB 3.2 Gen 1 BOT link of 4-2 (Elements 25A2)");
}

TEST_CASE("path_resources: sticks behind a USB 2.0 hub on EHCI see the hub uplink and the EHCI bus") {
  const Topology t = legacy_ehci();
  const auto rs = path_resources(t, block(t, "sdd"));
  CHECK(ids(rs) == std::vector<std::string>{"drive_link:5-1.3", "hub_uplink:5-1", "usb_bus:usb5",
                                            "controller:0000:00:1d.7"});
  CHECK(cap(rs[0]) == doctest::Approx(40));
  CHECK(cap(rs[1]) == doctest::Approx(40));
  CHECK(cap(rs[2]) == doctest::Approx(40));
  CHECK(rs[2].label == "USB 2.0 bus usb5 (ehci, shared by all its ports)");
}

TEST_CASE("path_resources: a USB3 hub pair — each drive goes through the half that carries it") {
  const Topology usb2_stick = usb3_hub_ssd_and_stick(false);
  CHECK(ids(path_resources(usb2_stick, block(usb2_stick, "sdb"))) ==
        std::vector<std::string>{"drive_link:2-1.1", "hub_uplink:2-1", "controller:0000:00:14.0"});
  const auto stick = path_resources(usb2_stick, block(usb2_stick, "sdc"));
  CHECK(ids(stick) ==
        std::vector<std::string>{"drive_link:1-1.2", "hub_uplink:1-1", "controller:0000:00:14.0"});
  CHECK(cap(stick[1]) == doctest::Approx(40));  // xHCI: no shared bus resource, the USB2 half's uplink limits

  const Topology usb3_stick = usb3_hub_ssd_and_stick(true);
  const auto s3 = path_resources(usb3_stick, block(usb3_stick, "sdc"));
  CHECK(ids(s3) == std::vector<std::string>{"drive_link:2-1.2", "hub_uplink:2-1", "controller:0000:00:14.0"});
  CHECK(cap(s3[0]) == doctest::Approx(310));
  CHECK(cap(s3[1]) == doctest::Approx(400));
}

TEST_CASE("path_resources: switch card — every hop of the PCIe chain, nearest first") {
  const Topology t = pcie_switch_card(2);
  const auto rs = path_resources(t, block(t, "sdc"));
  CHECK(ids(rs) == std::vector<std::string>{"drive_link:6-1", "controller:0000:04:00.0",
                                            "pcie_link:0000:04:00.0", "pcie_link:0000:02:02.0",
                                            "pcie_link:0000:01:00.0", "pcie_link:0000:00:01.0"});
  CHECK(cap(rs[2]) == doctest::Approx(400));
  CHECK(cap(rs[5]) == doctest::Approx(3150.7).epsilon(0.001));
}

TEST_CASE("calibration: overrides by resource id and replaced table rows change the capacities") {
  const Topology t = asm1042_card();
  CapacityModel m = nominal_model();
  m.overrides_mbs["controller:0000:03:00.0"] = 360;
  m.pcie_efficiency = 0.75;
  for (auto& row : m.usb)
    if (row.rate == UsbRate::Gen1) row.uas_mbs = 420;
  const auto rs = path_resources(t, block(t, "sda"), m);
  CHECK(cap(rs[0]) == doctest::Approx(420));
  CHECK(cap(rs[1]) == doctest::Approx(360));
  CHECK(cap(rs[2]) == doctest::Approx(375));
  // The nominal model is untouched.
  CHECK(cap(path_resources(t, block(t, "sda"))[0]) == doctest::Approx(400));
}

TEST_CASE("path_resources: a block device that is not below USB has none, and node ids are stable") {
  Machine m;
  const auto c = m.controller(std::nullopt, "0000:00:14.0", HcdKind::Xhci);
  m.root_hub(c, 2, UsbSpeed::Super, 2);
  Topology t = m.finish();
  CHECK(path_resources(t, *t.find_by_name("usb2")).empty());
  CHECK(node_id(t, *t.find_by_name("usb2")) == "usb2");
  CHECK(node_id(t, t.controllers()[0]) == "0000:00:14.0");
  CHECK(to_string(ResourceKind::UsbBus) == "usb_bus");
}

TEST_CASE("upstream_resources: a drive's path is its own link followed by what is above its port") {
  // The planner builds hypothetical drives from upstream_resources(port); they must match real drives
  // exactly.
  for (const auto& t : {asm1042_card(), legacy_ehci(), usb3_hub_ssd_and_stick(true), pcie_switch_card(4)}) {
    for (Vertex b : block_devices(t)) {
      const auto path = path_resources(t, b);
      if (path.empty()) continue;
      const auto dev = usb_device_of(t, b);
      REQUIRE(dev);
      const auto port = parent(t, *dev);
      REQUIRE(port);
      CAPTURE(t[b].as<BlockInfo>().name);
      const auto up = upstream_resources(t, *port);
      REQUIRE(path.size() == up.size() + 1);
      CHECK(path.front().kind == ResourceKind::DriveLink);
      for (std::size_t i = 0; i < up.size(); ++i) CHECK(path[i + 1] == up[i]);
    }
  }
}

TEST_CASE("parse_rate: SI multiples of bytes per second, a bare number is MB/s") {
  struct Row {
    const char* in;
    std::optional<std::uint64_t> bps;
  };
  const Row rows[] = {
      {"40M", 40'000'000},
      {"40MB/s", 40'000'000},
      {"40 MB/s", 40'000'000},
      {"400mb/s", 400'000'000},
      {"1.5G", 1'500'000'000},
      {"1.5GB/s", 1'500'000'000},
      {"800k", 800'000},
      {"40MB", 40'000'000},
      {"40M/s", 40'000'000},
      {"40", 40'000'000},
      {"170MB/s", 170'000'000},
      {"1.2G", 1'200'000'000},
      {"12Mb", 12'000'000},
      {"500k", 500'000},
      {"", std::nullopt},
      {"M", std::nullopt},
      {"0M", std::nullopt},
      {"0", std::nullopt},
      {"-5M", std::nullopt},
      {"40X", std::nullopt},
      {"4 0M", std::nullopt},
      {"fast", std::nullopt},
      {"nan", std::nullopt},
      {"inf", std::nullopt},
      // Beyond any link: saturated (never an overflowing conversion), so range checks name it out of range.
      {"1e30", std::numeric_limits<std::uint64_t>::max()},
      {"1e16", std::numeric_limits<std::uint64_t>::max()},
      {"1000000G", 1'000'000'000'000'000},
      // Positive but below half a byte per second: the smallest rate, never zero (found by fuzz_rates).
      {"1e-7", 1},
      {"0.0000004M", 1},
      {"0.4", 400'000},
      {"0.0000026M", 3},
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    const auto got = parse_rate(r.in);
    REQUIRE(got.has_value() == r.bps.has_value());
    if (got) CHECK(got->bytes_per_s == *r.bps);
  }
}
