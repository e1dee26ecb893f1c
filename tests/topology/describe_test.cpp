#include <doctest/doctest.h>

#include "topology/describe.hpp"

using namespace usbsat::topology;

TEST_CASE("describe: labels and phrases for sentences") {
  CHECK(hcd_label(HcdKind::Xhci) == "xHCI");
  CHECK(hcd_label(HcdKind::Unknown) == "unknown");
  CHECK(short_pci("0000:00:14.0") == "00:14.0");
  CHECK(short_pci("0001:00:14.0") == "0001:00:14.0");
  CHECK(usb_rate_text(UsbSpeed::High) == "480 Mb/s");
  CHECK(usb_rate_text(UsbSpeed::Super) == "5 Gb/s");
  CHECK(sysfs_speed_text(std::nullopt) == "unknown");
  CHECK(sysfs_pcie_speed(2.5) == "2.5 GT/s PCIe");
  CHECK(bandwidth_text(Bandwidth::from_mbs(392)) == "392 MB/s");
  CHECK(bandwidth_text(Bandwidth::from_mbs(1575)) == "1575 MB/s");
  CHECK(describe_speed(UsbSpeed::High, UsbSpeed::Super) == "480M (capable 5G)");
  CHECK(describe_speed(UsbSpeed::Low, UsbSpeed::Full) == "1.5M");
  CHECK(drive_at("sdb", "port 1") == "sdb (port 1)");
  CHECK(drive_at("sdb", "") == "sdb");
  CHECK(disk_model(std::string("WDC "), std::string(" WD40EFRX")) == "WDC WD40EFRX");
}
