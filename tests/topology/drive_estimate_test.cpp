// The medium estimate behind a drive's demand (topology/capacity/drive_estimate.hpp), table-tested, and over
// a machine.
#include <doctest/doctest.h>

#include <set>

#include "tests/support/machines.hpp"
#include "topology/capacity/drive_estimate.hpp"

using namespace usbsat::topology;
using namespace usbsat::testing;

namespace {

struct Row {
  const char* what;
  MediumFacts facts;
  std::optional<MediumKind> medium;  ///< nullopt: unknown (the link is the demand)
  std::optional<double> mbs;
};

}  // namespace

TEST_CASE("estimate_medium: the rules, one row each") {
  const auto uas = StorageProtocol::Uas, bot = StorageProtocol::Bot;
  const std::vector<Row> rows{
      {"rotational on UAS, bus-powered: a portable disk",
       {true, false, uas, 896},
       MediumKind::PortableHdd,
       140},
      {"rotational on UAS, power unknown: portable",
       {true, std::nullopt, uas, std::nullopt},
       MediumKind::PortableHdd,
       140},
      {"rotational, self-powered (2 mA): a desktop disk", {true, false, uas, 2}, MediumKind::DesktopHdd, 190},
      {"rotational on BOT, not removable: a disk", {true, false, bot, 500}, MediumKind::PortableHdd, 140},
      {"rotational on BOT, removable: the kernel's default, unknown",
       {true, true, bot, 200},
       std::nullopt,
       {}},
      {"rotational unknown: unknown", {std::nullopt, false, uas, 896}, std::nullopt, {}},
      {"flash behind an ASMedia SATA bridge (USB id)",
       {false, false, uas, 896, 0x174c, 0x55aa},
       MediumKind::SataSsd,
       540},
      {"flash behind a JMicron NVMe bridge (USB id): the link",
       {false, false, uas, 896, 0x152d, 0x0583},
       MediumKind::NvmeSsd,
       std::nullopt},
      {"flash behind ASMT 2115 (SCSI vendor/model)",
       {false, false, bot, 896, 0x1234, 0x5678, std::string("ASMT"), std::string("2115")},
       MediumKind::SataSsd,
       540},
      {"flash behind Realtek RTL9210 NVME (SCSI)",
       {false, false, uas, 896, std::nullopt, std::nullopt, std::string("Realtek"),
        std::string("RTL9210 NVME")},
       MediumKind::NvmeSsd,
       std::nullopt},
      {"flash, bridge unknown: unknown", {false, false, uas, 896, 0x0781, 0x558c}, std::nullopt, {}},
  };
  CHECK(rows.size() == 11);
  for (const auto& r : rows) {
    CAPTURE(r.what);
    const auto e = estimate_medium(r.facts);
    REQUIRE(e.has_value() == r.medium.has_value());
    if (!e) continue;
    CHECK(e->medium == *r.medium);
    CHECK(e->rate.has_value() == r.mbs.has_value());
    if (r.mbs) CHECK(e->rate->mbs() == doctest::Approx(*r.mbs));
    CHECK_FALSE(e->what.empty());
    CHECK_FALSE(e->source.empty());
  }
}

TEST_CASE("every media and bridge row has a source, and bridge ids are unique") {
  for (const auto& r : medium_table()) CHECK_FALSE(r.source.empty());
  std::set<std::pair<unsigned, unsigned>> ids;
  for (const auto& r : bridge_table()) {
    CHECK_FALSE(r.source.empty());
    CHECK_FALSE(r.chip.empty());
    if (r.vendor_id)
      CHECK(ids.insert({r.vendor_id, r.product_id}).second);
    else
      CHECK_FALSE(r.scsi_vendor.empty());
  }
}

TEST_CASE("medium_facts reads the disk, its interface and its USB device") {
  const auto t = asm1042_card();
  const auto sda = *t.find_by_name("sda");
  const auto f = medium_facts(t, sda);
  CHECK(f.rotational == true);
  CHECK(f.protocol == StorageProtocol::Uas);
  CHECK(f.max_power_ma == 896u);
  CHECK(f.vendor_id == 0x0bc2);
  CHECK(f.scsi_vendor == "Seagate");
  const auto e = estimate_medium(f);
  REQUIRE(e);
  CHECK(e->medium == MediumKind::PortableHdd);
}
