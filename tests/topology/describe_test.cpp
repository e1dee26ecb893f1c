#include <doctest/doctest.h>

#include "topology/words/describe.hpp"

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

TEST_CASE("describe: one wording per rate, PCIe link, controller and location") {
  SUBCASE("rates in MB/s") {
    struct Row {
      double mbs;
      int decimals;
      const char* text;
    };
    for (const auto& r : {Row{392.4, 0, "392 MB/s"}, Row{392.44, 1, "392.4 MB/s"}, Row{0, 0, "0 MB/s"},
                          Row{1575, 0, "1575 MB/s"}, Row{40, 1, "40.0 MB/s"}}) {
      CAPTURE(r.mbs);
      CHECK(mbs_text(r.mbs, r.decimals) == r.text);
      CHECK(mbs_figure(r.mbs, r.decimals) + " MB/s" == r.text);
    }
    CHECK(mbs_list_text({310.2, 35}, "+") == "310+35 MB/s");
    // A Bandwidth: three significant digits below 1000 MB/s, whole MB/s from 1000 on (mbs_text's rule).
    CHECK(bandwidth_text(Bandwidth::from_mbs(1.216)) == "1.22 MB/s");
    CHECK(bandwidth_text(Bandwidth::from_mbs(3600.4)) == mbs_text(3600.4));
  }
  SUBCASE("PCIe links") {
    CHECK(pcie_rate_text(5.0, 1u) == "5 GT/s x1");
    CHECK(pcie_rate_text(2.5, std::nullopt) == "2.5 GT/s");
    CHECK(pcie_rate_text(std::nullopt, 4u) == "x4");
    CHECK(pcie_rate_text(std::nullopt, std::nullopt) == "");
    CHECK(pcie_link_text({.speed_gts = 5.0, .width = 1, .max_speed_gts = 8.0, .max_width = 1}) ==
          "PCIe 5 GT/s x1 (max 8 GT/s x1)");
    CHECK(pcie_link_text({.speed_gts = 8.0, .width = 4, .max_speed_gts = 8.0, .max_width = 4}) ==
          "PCIe 8 GT/s x4");
    CHECK(pcie_link_text({}) == "");
    // current_link_speed "Unknown", current_link_width 0: no current side, never an empty phrase.
    CHECK(pcie_link_text({.max_speed_gts = 8.0, .max_width = 1}) == "PCIe link unknown (max 8 GT/s x1)");
    CHECK(pcie_link_text({.max_width = 4}) == "PCIe link unknown (max x4)");
    CHECK(pcie_link_text({.width = 4}) == "PCIe x4");
  }
  SUBCASE("controllers: one human word per kind") {
    CHECK(controller_name(HcdKind::Xhci, "0000:03:00.0") == "xHCI controller 0000:03:00.0");
    ControllerInfo c;
    c.kind = HcdKind::Ehci;
    c.bdf = "0000:00:1d.0";
    CHECK(controller_label(c) == "EHCI controller 0000:00:1d.0");
    c.model_name = "ASM1042  SuperSpeed";
    CHECK(controller_label(c) == "EHCI controller 0000:00:1d.0 (ASM1042 SuperSpeed)");
  }
  SUBCASE("locations") {
    CHECK(describe_location({}) == "");
    CHECK(describe_location({.panel = "back", .vertical_position = "upper", .horizontal_position = "left"}) ==
          "back panel, upper left");
    CHECK(describe_location({.panel = "unknown", .dock = true}) == "dock");
    CHECK(describe_location({.panel = "front", .lid = true}) == "front panel, lid");
    CHECK(describe_location({.vertical_position = "center", .horizontal_position = "right"}) ==
          "center right");
  }
}
