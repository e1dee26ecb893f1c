// shared_bandwidth: drives that slow each other down, from a canned predictor and from the bandwidth model.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"
#include "topology/history/identity.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("shared_bandwidth comes from the predictor and groups drives by bottleneck") {
  Machine m;
  const auto h = intel_xhci(m);
  const UsbDev gen1{.speed = UsbSpeed::Super, .capable_from_bos = true};
  const auto a = m.drive(Machine::port_of(h.usb3, 1), gen1, {.name = "sdb"}).device;
  const auto b = m.drive(Machine::port_of(h.usb3, 2), gen1, {.name = "sdc"}).device;
  const auto c = m.drive(Machine::port_of(h.usb3, 3), gen1, {.name = "sdd"}).device;
  const auto t = m.finish();
  const auto va = *t.find(a), vb = *t.find(b), vc = *t.find(c);

  SUBCASE("two drives over capacity on one link, one alone on another") {
    FakePredictor p({{va, 400, 190, "usb_bus:usb2", "usb2", "SuperSpeed bus usb2", 380},
                     {vb, 400, 190, "usb_bus:usb2", "usb2", "SuperSpeed bus usb2", 380},
                     {vc, 400, 400, "drive_link:2-3", "2-3", "usb2-port3", 450}});
    const auto r = diagnose(t, {.predictor = &p});
    const auto& f = only(r.findings, "shared_bandwidth");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"sdb", "2-1", "sdc", "2-2"});
    CHECK(evidence(f, "bottleneck") == "SuperSpeed bus usb2");
    // Every free USB3 connector of this machine is behind usb2: nothing to move to.
    CHECK(contains(f.fix, "No free connector avoids the SuperSpeed bus usb2"));
    CHECK(evidence(f, "bottleneck capacity (MB/s)") == "380");
    CHECK(evidence(f, "sdb alone / shared (MB/s)") == "400 / 190");
    CHECK(contains(f.message, "about 380 MB/s usable for 800 MB/s of combined demand"));
  }
  SUBCASE("sharing within capacity is not a finding") {
    FakePredictor p({{va, 200, 200, "usb_bus:usb2", "usb2", "root hub usb2", 900},
                     {vb, 200, 195, "usb_bus:usb2", "usb2", "root hub usb2", 900}});
    CHECK(diagnose(t, {.predictor = &p}).findings.empty());
  }
  SUBCASE("no predictor, no finding") {
    CHECK(diagnose(t).findings.empty());
  }
}

TEST_CASE("the bandwidth model behind shared_bandwidth: two 5G drives on an ASM1042 behind PCIe 2.0 x1") {
  Machine m;
  const auto rp = m.pci_hop(std::nullopt, "0000:00:1c.4",
                            {.link = {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4}});
  const auto ctrl =
      m.controller(rp, "0000:03:00.0", HcdKind::Xhci, {.model = "ASM1042", .link = pcie(5.0, 1)});
  const auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High, 2);
  const auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super, 2);
  m.pair_ports(u1, u2, 2);
  m.drive(Machine::port_of(u2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
  const auto t1 = m.finish();
  const analysis::doctor::ModelSharePredictor model;
  CHECK(diagnose(t1, {.predictor = &model}).findings.empty());  // one drive alone shares nothing

  Machine m2;
  const auto rp2 = m2.pci_hop(std::nullopt, "0000:00:1c.4",
                              {.link = {.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 4}});
  const auto ctrl2 =
      m2.controller(rp2, "0000:03:00.0", HcdKind::Xhci, {.model = "ASM1042", .link = pcie(5.0, 1)});
  const auto v1 = m2.root_hub(ctrl2, 3, UsbSpeed::High, 2);
  const auto v2 = m2.root_hub(ctrl2, 4, UsbSpeed::Super, 2);
  m2.pair_ports(v1, v2, 2);
  m2.drive(Machine::port_of(v2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
  m2.drive(Machine::port_of(v2, 2), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdc"});
  const auto t2 = m2.finish();
  const auto r = diagnose(t2, {.predictor = &model});
  const auto& f = only(r.findings, "shared_bandwidth");
  CHECK(f.devices == std::vector<std::string>{"sdb", "4-1", "sdc", "4-2"});
  CHECK(contains(evidence(f, "bottleneck"), "0000:03:00.0"));
  CHECK(contains(f.fix, "No free connector avoids"));
  CHECK(worst(r.findings) == FindingSeverity::Warning);
}

TEST_CASE("shared_bandwidth weighs real demands: two portable hard disks fit an ASM1042's PCIe 2.0 x1 lane") {
  // The case: at their links' ceilings (2 x 400 MB/s) they would split the lane; as hard disks
  // (~140 MB/s each, estimated from the medium) they do not, so no warning, only the INFO that says so.
  const auto t = asm1042_card();
  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(t, {.predictor = &model});
  const auto& f = only(r.findings, "shared_bandwidth");
  CHECK(f.severity == FindingSeverity::Info);
  CHECK(contains(f.message, "their demands fit it: 280 MB/s together"));
  CHECK(contains(f.message, "(demand bases: sda estimate, sdb estimate)"));
  CHECK(contains(f.message, "Drives as fast as their links (800 MB/s together) would split it"));
  CHECK(evidence(f, "sda demand basis") == "estimated: portable hard disk (rotational, bus-powered)");

  // Measured faster (both 300 MB/s alone, remembered): they contend, and the warning says on what basis.
  history::Store store;
  for (const char* dev : {"sda", "sdb"}) {
    const auto v = *t.find_by_name(dev);
    history::Measurement m{.date = "2026-12-06T10:00:00Z",
                           .version = "0.1.0",
                           .command = "load",
                           .pattern = "read",
                           .block_size = 131072,
                           .queue_depth = 1,
                           .group = {},
                           .mbs = 300};
    const auto place = history::place_of(t, v);
    m.rate = place.rate;
    m.protocol = place.protocol;
    history::add_measurement(store, *history::drive_identity(t, v), m);
  }
  const analysis::doctor::ModelSharePredictor measured(&store);
  const auto rm = diagnose(t, {.predictor = &measured});  // kept: `only` returns a reference into it
  const auto& w = only(rm.findings, "shared_bandwidth");
  CHECK(w.severity == FindingSeverity::Warning);
  CHECK(contains(
      w.message,
      "about 400 MB/s usable for 600 MB/s of combined demand (demand bases: sda measured 2026-12-06"));
}

TEST_CASE("slow_hub_uplink: a hard disk behind a hub slower than its link is INFO when its demand fits") {
  Machine m;
  const auto h = intel_xhci(m);  // a 10 Gb/s SuperSpeed root hub
  const auto hub = m.hub(Machine::port_of(h.usb3, 1), {.product = "USB3 Hub", .speed = UsbSpeed::Super}, 2);
  m.drive(Machine::port_of(hub, 1),
          {.speed = UsbSpeed::Super,
           .capable = UsbSpeed::SuperPlus,
           .capable_from_bos = true,
           .max_power_ma = 896},
          {.name = "sdb", .size_bytes = 4000000000000, .rotational = true});
  const auto t = m.finish();
  const auto blind = findings_of(t, "slow_hub_uplink");  // no predictor: the demand is not known
  REQUIRE(blind.size() == 1);
  CHECK(blind[0].severity == FindingSeverity::Warning);
  const analysis::doctor::ModelSharePredictor model;
  const auto r = diagnose(t, {.predictor = &model});
  const auto& f = only(r.findings, "slow_hub_uplink");
  CHECK(f.severity == FindingSeverity::Info);
  CHECK(contains(f.message, "Their demands fit the hub's uplink (about 400 MB/s): sdb 140 MB/s, estimated"));
}
