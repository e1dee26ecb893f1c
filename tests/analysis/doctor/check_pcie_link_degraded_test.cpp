// pcie_link_degraded: a controller's PCIe link trained below what both ends can do.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"
#include "topology/capacity/bandwidth.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("pcie_link_degraded pairs both ends of a link") {
  auto build = [](double cur_gts, unsigned cur_w) {
    Machine m;
    const auto rp =
        m.pci_hop(std::nullopt, "0000:00:1c.4",
                  {.link = {.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 8.0, .max_width = 4}});
    const auto ctrl =
        m.controller(rp, "0000:03:00.0", HcdKind::Xhci,
                     {.model = "ASM1042 SuperSpeed USB Host Controller",
                      .link = {.speed_gts = cur_gts, .width = cur_w, .max_speed_gts = 5.0, .max_width = 1}});
    const auto u1 = m.root_hub(ctrl, 3, UsbSpeed::High, 2);
    const auto u2 = m.root_hub(ctrl, 4, UsbSpeed::Super, 2);
    m.pair_ports(u1, u2, 2);
    m.drive(Machine::port_of(u2, 1), {.speed = UsbSpeed::Super, .capable_from_bos = true}, {.name = "sdb"});
    return m.finish();
  };
  SUBCASE("x1 card in a x4 slot at its full 5 GT/s: healthy") {
    CHECK(diagnose(build(5.0, 1)).findings.empty());
  }
  SUBCASE("trained at 2.5 GT/s: degraded, warning because a drive is behind it") {
    const auto r = diagnose(build(2.5, 1));
    const auto& f = only(r.findings, "pcie_link_degraded");
    CHECK(f.severity == FindingSeverity::Warning);
    CHECK(f.devices == std::vector<std::string>{"0000:03:00.0", "0000:00:1c.4", "sdb", "4-1"});
    CHECK(evidence(f, "0000:03:00.0/current_link_speed") == "2.5 GT/s PCIe");
    CHECK(evidence(f, "0000:00:1c.4/max_link_speed") == "8.0 GT/s PCIe");
    // One capacity per link: the bandwidth model's figure for PCIe 2.0 x1 (plan and saturate say the same).
    CHECK(contains(f.message, "about 200 MB/s instead of 400 MB/s"));
    topology::PcieLink gen2x1;
    gen2x1.speed_gts = 5.0;
    gen2x1.width = 1;
    CHECK(topology::pcie_capacity(gen2x1)->mbs() == doctest::Approx(400.0));
    CHECK(contains(f.fix, "lspci -vv -s 0000:03:00.0"));
  }
}
