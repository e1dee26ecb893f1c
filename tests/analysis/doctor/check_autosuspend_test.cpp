// autosuspend: USB runtime power management on a storage device.
#include <doctest/doctest.h>

#include "tests/analysis/doctor/doctor_fixture.hpp"

using namespace usbsat;
using namespace usbsat::testing;

TEST_CASE("autosuspend on a storage device") {
  Machine m;
  const auto h = intel_xhci(m);
  m.drive(Machine::port_of(h.usb3, 1),
          {.vid = 0x04e8,
           .pid = 0x4001,
           .speed = UsbSpeed::SuperPlus,
           .capable = UsbSpeed::SuperPlus,
           .capable_from_bos = true,
           .power_control = "auto"},
          {.name = "sda", .max_sectors_kb = 1024, .max_hw_sectors_kb = 32767});
  // A non-storage device with autosuspend is not our business.
  m.device(Machine::port_of(h.usb2, 5), {.speed = UsbSpeed::Full, .power_control = "auto"});
  const auto r = diagnose(m.finish());
  REQUIRE(r.findings.size() == 1);
  const auto& f = r.findings[0];
  CHECK(f.id == "autosuspend");
  CHECK(f.devices == std::vector<std::string>{"sda", "2-1"});
  CHECK(evidence(f, "2-1/power/control") == "auto");
  CHECK(contains(f.fix, "echo on | sudo tee /sys/bus/usb/devices/2-1/power/control"));
}
