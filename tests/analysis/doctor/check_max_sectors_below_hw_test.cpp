// max_sectors_below_hw: a request size limit below what the hardware takes.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("max_sectors_below_hw gives the exact command") {
  auto build = [](unsigned cur, unsigned hw) {
    Machine m;
    const auto h = intel_xhci(m);
    m.drive(Machine::port_of(h.usb3, 1),
            {.vid = 0x0bc2, .pid = 0xab38, .speed = UsbSpeed::Super, .capable_from_bos = true},
            {.name = "sdc", .max_sectors_kb = cur, .max_hw_sectors_kb = hw});
    return m.finish();
  };
  const auto r = diagnose(build(120, 32767));
  const auto& f = only(r.findings, "max_sectors_below_hw");
  CHECK(f.severity == FindingSeverity::Info);
  CHECK(f.devices == std::vector<std::string>{"sdc", "2-1"});
  CHECK(evidence(f, "sdc/queue/max_sectors_kb") == "120");
  CHECK(evidence(f, "sdc/queue/max_hw_sectors_kb") == "32767");
  CHECK(contains(f.fix, "echo 1024 | sudo tee /sys/block/sdc/queue/max_sectors_kb\n"));
  CHECK(contains(f.fix, "echo 120 | sudo tee /sys/block/sdc/queue/max_sectors_kb"));
  CHECK(contains(f.fix, "ATTRS{idVendor}==\"0bc2\""));
  CHECK(contains(f.message, "Turbo mode"));
  CHECK(worst(r.findings) == FindingSeverity::Info);  // info only

  // Target is capped by the hardware limit; at or above the target there is nothing to say.
  CHECK(
      contains(only(diagnose(build(120, 512)).findings, "max_sectors_below_hw").fix, "echo 512 | sudo tee"));
  CHECK(diagnose(build(512, 512)).findings.empty());
  CHECK(diagnose(build(1280, 32767)).findings.empty());
  CHECK(diagnose(build(256, 32767), {.max_sectors_target_kb = 256}).findings.empty());
}
