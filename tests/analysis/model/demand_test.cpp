// A drive's demand and its basis: given > measured > estimated > link ceiling
// (src/analysis/model/demand.hpp).
#include <doctest/doctest.h>

#include "src/analysis/model/demand.hpp"
#include "tests/support/machines.hpp"
#include "topology/history/identity.hpp"

using namespace usbsat;
using namespace usbsat::analysis::model;
using topology::BasisKind;

namespace {

/// A store with one measurement of `dev` of `t` alone: `mbs` at `rate`/`protocol` (its current place's
/// when empty).
history::Store measured(const topology::Topology& t, const std::string& dev, double mbs,
                        std::string rate = "", std::string protocol = "") {
  const auto v = *t.find_by_name(dev);
  const auto place = history::place_of(t, v);
  history::Measurement m;
  m.date = "2026-12-06T10:00:00Z";
  m.version = "0.1.0";
  m.command = "load";
  m.pattern = "read";
  m.block_size = 131072;
  m.queue_depth = 1;
  m.mbs = mbs;
  m.device = dev;
  m.connector = place.connector;
  m.rate = rate.empty() ? place.rate : rate;
  m.protocol = protocol.empty() ? place.protocol : protocol;
  m.controller = place.controller;
  history::Store s;
  history::add_measurement(s, *history::drive_identity(t, v), m);
  return s;
}

}  // namespace

TEST_CASE("drive_demand: given, then measured, then estimated, then the link's ceiling") {
  const auto t = testing::asm1042_card();  // two rotational drives, UAS, on 5 Gb/s ports
  const auto sda = *t.find_by_name("sda");
  const auto store = measured(t, "sda", 152.5);

  const auto given = drive_demand(t, sda, Bandwidth::from_mbs(90), &store);
  CHECK(given.basis.kind == BasisKind::Given);
  CHECK(given.demand->mbs() == doctest::Approx(90));

  const auto m = drive_demand(t, sda, std::nullopt, &store);
  CHECK(m.basis.kind == BasisKind::Measured);
  CHECK(m.demand->mbs() == doctest::Approx(152.5));
  CHECK(m.basis.date == "2026-12-06T10:00:00Z");
  CHECK(m.basis.where == "usb4-port1, USB 3.2 Gen 1 UAS");
  CHECK(m.basis.what == "load read 128k QD1");

  const auto e = drive_demand(t, sda, std::nullopt, nullptr);
  CHECK(e.basis.kind == BasisKind::Estimated);
  CHECK(e.demand->mbs() == doctest::Approx(140));
  CHECK(e.basis.what == "portable hard disk (rotational, bus-powered)");
  CHECK_FALSE(e.basis.source.empty());

  const auto ssd = testing::pcie_switch_card(2);  // non-rotational drives, bridge unknown: the link
  const auto v = *ssd.find_by_name("sdb");
  const auto l = drive_demand(ssd, v, std::nullopt, nullptr);
  CHECK(l.basis.kind == BasisKind::LinkCeiling);
  CHECK(l.basis.what.ends_with(" link"));
}

TEST_CASE("drive_demand: a measurement at another link is not used as if it were current") {
  const auto t = testing::asm1042_card();
  const auto sda = *t.find_by_name("sda");
  SUBCASE("link-limited then (USB 2.0 BOT, 38 MB/s of 40): not used, the estimate instead, and said") {
    const auto store = measured(t, "sda", 38, "USB 2.0", "bot");
    const auto d = drive_demand(t, sda, std::nullopt, &store);
    CHECK(d.basis.kind == BasisKind::Estimated);
    CHECK(d.basis.note == "measured 2026-12-06 at USB 2.0 BOT, now USB 3.2 Gen 1 UAS: not used");
  }
  SUBCASE("drive-limited then (USB 3.2 Gen 2 UAS, 150 of 1000): still the drive's rate, and said") {
    const auto store = measured(t, "sda", 150, "USB 3.2 Gen 2", "uas");
    const auto d = drive_demand(t, sda, std::nullopt, &store);
    CHECK(d.basis.kind == BasisKind::Measured);
    CHECK(d.demand->mbs() == doctest::Approx(150));
    CHECK(d.basis.note.find("the drive, not its link, limited it then") != std::string::npos);
  }
  SUBCASE("another drive's measurement is not this one's") {
    const auto store = measured(t, "sdb", 99);
    CHECK(drive_demand(t, sda, std::nullopt, &store).basis.kind == BasisKind::Estimated);
  }
}

TEST_CASE("demand_specs: one spec per name, unknown names keep no demand") {
  const auto t = testing::asm1042_card();
  const std::vector<std::string> names{"/dev/sda", "sdb", "sdz"};
  const auto specs = demand_specs(t, names, {{"sdb", Bandwidth::from_mbs(50)}}, nullptr);
  REQUIRE(specs.size() == 3);
  CHECK(specs[0].dev == "sda");
  CHECK(specs[0].basis.kind == BasisKind::Estimated);
  CHECK(specs[1].basis.kind == BasisKind::Given);
  CHECK_FALSE(specs[2].demand);
  const auto p = make_problem(t, specs);
  CHECK(p.drives.size() == 2);  // sdz: not a block device, left out
  CHECK(predict_fair_share(p).drives[0].basis.kind == BasisKind::Estimated);
}
