#include <doctest/doctest.h>

#include "tests/support/machines.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/published.hpp"
#include "topology/words/describe.hpp"

using namespace usbsat::topology;
using namespace usbsat::testing;

namespace {

struct PiSetup {
  std::uint16_t root_did = 0x2711;  ///< the root port above the VL805 (0x2711: the BCM2711's)
  double gts = 5.0;                 ///< the VL805's link
  StorageProtocol proto = StorageProtocol::Uas;
};

/// A VL805 behind a root port with one SATA SSD on its USB3 root port: the Raspberry Pi 4 when the root port
/// is the BCM2711's (14e4:2711), a PC's add-in card otherwise.
Topology vl805(const PiSetup& s = {}) {
  Machine m;
  const auto rp =
      m.pci_hop(std::nullopt, "0000:00:00.0",
                {.vid = 0x14e4, .did = s.root_did, .model = "BCM2711 PCIe Bridge", .link = pcie(5.0, 1)});
  const auto x = m.controller(rp, "0000:01:00.0", HcdKind::Xhci,
                              {.vid = 0x1106,
                               .did = 0x3483,
                               .vendor = "VIA Technologies, Inc.",
                               .model = "VL805/806 xHCI USB 3.0 Controller",
                               .link = pcie(s.gts, 1)});
  const auto u2 = m.root_hub(x, 2, UsbSpeed::Super, 4);
  const bool uas = s.proto == StorageProtocol::Uas;
  m.drive(
      Machine::port_of(u2, 1),
      {.vid = 0x174c, .pid = 0x55aa, .product = "ASM1153E", .speed = UsbSpeed::Super, .max_power_ma = 896},
      {.name = "sda", .size_bytes = 120034123776, .vendor = "ATA", .model = "KINGSTON SA400S3"},
      {.driver = uas ? "uas" : "usb-storage", .uas_alt = uas});
  return m.finish();
}

const Resource& by_kind(const std::vector<Resource>& rs, ResourceKind k) {
  for (const auto& r : rs)
    if (r.kind == k) return r;
  FAIL("no resource of that kind");
  return rs.front();
}

}  // namespace

TEST_CASE("published rows: every row sourced, with a setup and a figure below its link's raw rate") {
  REQUIRE(published_table().size() >= 4);
  for (const auto& r : published_table()) {
    CAPTURE(r.name);
    CHECK_FALSE(r.source.empty());
    CHECK_FALSE(r.setup.empty());
    CHECK((r.uas_mbs || r.bot_mbs));
    if (r.uas_mbs && r.bot_mbs) CHECK(*r.bot_mbs <= *r.uas_mbs);
    if (r.link_gts > 0) {  // a figure above the raw PCIe rate of its own setup would be a typo
      const double raw = r.link_gts >= 8 ? r.link_gts * 128 / 130 / 8 * 1000 : r.link_gts * 0.8 / 8 * 1000;
      CHECK(published_controller_mbs(r).value() < raw * r.link_width);
    }
  }
  CHECK(nominal_model().published.size() == published_table().size());
}

TEST_CASE("published rows: the Raspberry Pi 4's VL805 is matched by platform, link and ids") {
  const Topology pi = vl805();
  const auto* row = published_row_for(pi, *pi.find_by_name("0000:01:00.0"), published_table());
  REQUIRE(row);
  CHECK(row->name == "VL805 on Raspberry Pi 4");
  // The same controller on a PC (another root port) or another link is not the published setup.
  const Topology pc = vl805({.root_did = 0x1234});
  CHECK_FALSE(published_row_for(pc, *pc.find_by_name("0000:01:00.0"), published_table()));
  const Topology fast = vl805({.gts = 8.0});
  CHECK_FALSE(published_row_for(fast, *fast.find_by_name("0000:01:00.0"), published_table()));
  // Not a controller: no row.
  CHECK_FALSE(published_row_for(pi, *pi.find_by_name("0000:00:00.0"), published_table()));
}

TEST_CASE("published rows: a ceiling per protocol on the drive link, the best figure on the controller") {
  const Topology uas = vl805();
  const auto rs = path_resources(uas, block(uas, "sda"));
  const auto& link = by_kind(rs, ResourceKind::DriveLink);
  CHECK(link.capacity->mbs() == doctest::Approx(297));
  REQUIRE(link.capacity_basis);
  CHECK(link.capacity_basis->kind == BasisKind::Published);
  CHECK(
      describe_basis(*link.capacity_basis) ==
      "published: VL805 on Raspberry Pi 4, UAS ~297 MB/s (Jeff Geerling, \"Raspberry Pi USB boot, UASP, TRIM "
      "and performance\", 2020; Kingston SATA SSD in an Inateck UAS enclosure (BOT: UAS off), hdparm)");
  const auto& ctrl = by_kind(rs, ResourceKind::Controller);
  CHECK(ctrl.capacity->mbs() == doctest::Approx(297));
  CHECK(
      describe_capacity_basis(*ctrl.capacity_basis, *ctrl.capacity) ==
      "published: VL805 on Raspberry Pi 4, ~297 MB/s (Jeff Geerling, \"Raspberry Pi USB boot, UASP, TRIM and "
      "performance\", 2020; Kingston SATA SSD in an Inateck UAS enclosure (BOT: UAS off), hdparm); model: "
      "not limited");
  CHECK(basis_short(*ctrl.capacity_basis) == "published");

  const Topology bot = vl805({.proto = StorageProtocol::Bot});
  const auto bot_rs = path_resources(bot, block(bot, "sda"));
  const auto& bot_link = by_kind(bot_rs, ResourceKind::DriveLink);
  CHECK(bot_link.capacity->mbs() == doctest::Approx(172));
  CHECK(bot_link.capacity_basis->model_mbs == doctest::Approx(310));
  CHECK(describe_capacity_basis(*bot_link.capacity_basis, *bot_link.capacity).ends_with("; model 310 MB/s"));

  // Elsewhere the table stands, and nothing is said.
  const Topology pc = vl805({.root_did = 0x1234});
  const auto pc_rs = path_resources(pc, block(pc, "sda"));
  CHECK(by_kind(pc_rs, ResourceKind::DriveLink).capacity->mbs() == doctest::Approx(400));
  CHECK_FALSE(by_kind(pc_rs, ResourceKind::DriveLink).capacity_basis);
  CHECK_FALSE(by_kind(pc_rs, ResourceKind::Controller).capacity);
}

TEST_CASE("published rows: a figure above the table's leaves the link alone, an override wins") {
  const Topology t = vl805();
  CapacityModel m = nominal_model();
  for (auto& row : m.usb)
    if (row.rate == UsbRate::Gen1) row.uas_mbs = 250;  // below the published 297: the table's figure stands
  const auto rs = path_resources(t, block(t, "sda"), m);
  CHECK(by_kind(rs, ResourceKind::DriveLink).capacity->mbs() == doctest::Approx(250));
  CHECK_FALSE(by_kind(rs, ResourceKind::DriveLink).capacity_basis);
  m.overrides_mbs["controller:0000:01:00.0"] = 350;
  const auto overridden = path_resources(t, block(t, "sda"), m);
  const auto& ctrl = by_kind(overridden, ResourceKind::Controller);
  CHECK(ctrl.capacity->mbs() == doctest::Approx(350));
  CHECK_FALSE(ctrl.capacity_basis);
}
