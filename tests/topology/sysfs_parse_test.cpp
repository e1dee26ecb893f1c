#include <doctest/doctest.h>

#include "topology/model/sysfs_parse.hpp"

using namespace usbsat::topology;

TEST_CASE("hex ids") {
  struct Row {
    const char* text;
    std::optional<std::uint16_t> v;
  };
  const Row rows[] = {{"0781", 0x0781},        {"0x0781", 0x0781},     {"8086\n", 0x8086},
                      {"FFFF", 0xffff},        {" 1d6b ", 0x1d6b},     {"", std::nullopt},
                      {"12345", std::nullopt}, {"07g1", std::nullopt}, {"0x", std::nullopt}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_hex16(r.text) == r.v);
  }
  CHECK(parse_hex32("0x0c0330\n") == 0x0c0330u);
  CHECK(parse_hex32("0c0320") == 0x0c0320u);
  CHECK_FALSE(parse_hex32("0x0c03300000"));
  CHECK(parse_hex8("09") == 0x09);
  CHECK(parse_hex8("ff") == 0xff);
  CHECK_FALSE(parse_hex8("100"));
  CHECK(parse_uint(" 04\n") == 4u);
  CHECK_FALSE(parse_uint("-1"));
  CHECK_FALSE(parse_uint("99999999999999999999999"));
}

TEST_CASE("bcdUSB version strings keep their meaning (3.1 is not 10 Gb/s)") {
  struct Row {
    const char* text;
    std::optional<std::uint16_t> bcd;
    UsbSpeed capable;
  };
  const Row rows[] = {{" 1.10", 0x0110, UsbSpeed::Full},   {" 2.00", 0x0200, UsbSpeed::High},
                      {" 2.10\n", 0x0210, UsbSpeed::High}, {" 3.00", 0x0300, UsbSpeed::Super},
                      {" 3.10", 0x0310, UsbSpeed::Super},  {" 3.20", 0x0320, UsbSpeed::Super},
                      {"1.00", 0x0100, UsbSpeed::Full}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    REQUIRE(parse_bcd_version(r.text) == r.bcd);
    CHECK(speed_from_bcd_usb(*r.bcd) == r.capable);
  }
  CHECK_FALSE(parse_bcd_version("3"));
  CHECK_FALSE(parse_bcd_version(" 3.2"));
  CHECK_FALSE(parse_bcd_version("x.yz"));
  CHECK_FALSE(parse_bcd_version(""));
}

TEST_CASE("bMaxPower") {
  CHECK(parse_max_power("896mA") == 896u);
  CHECK(parse_max_power("0mA\n") == 0u);
  CHECK(parse_max_power("500mA") == 500u);
  CHECK_FALSE(parse_max_power("500"));
  CHECK_FALSE(parse_max_power("mA"));
  CHECK_FALSE(parse_max_power("5x0mA"));
}

TEST_CASE("maxchild: a port count a hub can have, else nothing") {
  struct Row {
    const char* text;
    std::optional<unsigned> ports;
  };
  const Row rows[] = {
      {"4", 4u},
      {"0", 0u},
      {"15\n", 15u},
      {"255", 255u},
      {"256", std::nullopt},
      {"4294967295", std::nullopt},
      {"99999999999", std::nullopt},
      {"-1", std::nullopt},
      {"", std::nullopt},
      {"four", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_maxchild(r.text) == r.ports);
  }
}

TEST_CASE("port names round-trip") {
  struct Row {
    const char* text;
    std::optional<PortName> p;
  };
  const Row rows[] = {{"usb2-port3", PortName{"usb2", 3}},
                      {"1-2.4-port1", PortName{"1-2.4", 1}},
                      {"usb10-port15\n", PortName{"usb10", 15}},
                      {"3-1.1-port4", PortName{"3-1.1", 4}},
                      {"usb2-port0", std::nullopt},
                      {"port3", std::nullopt},
                      {"1-2:1.0-port1", std::nullopt},
                      {"usb2-portx", std::nullopt}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_port_name(r.text) == r.p);
    if (r.p) CHECK(format_port_name(*r.p) == std::string(trim(r.text)));
  }
  CHECK(port_name_for("usb1", 2) == "usb1-port2");
  CHECK(port_name_for("1-2", 4) == "1-2-port4");
}

TEST_CASE("USB device and interface names round-trip") {
  struct Row {
    const char* text;
    std::optional<UsbName> n;
  };
  const Row rows[] = {
      {"usb2", UsbName{2, {}, {}, {}}},
      {"2-1.4", UsbName{2, {1, 4}, {}, {}}},
      {"2-1.4:1.0", UsbName{2, {1, 4}, 1u, 0u}},
      {"1-0:1.0", UsbName{1, {}, 1u, 0u}},
      {"5-2:1.13", UsbName{5, {2}, 1u, 13u}},
      {"1-0", std::nullopt},
      {"usb0", std::nullopt},
      {"1-2..3", std::nullopt},
      {"0000:00:14.0", std::nullopt},
      {"host6", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_usb_name(r.text) == r.n);
    if (r.n) CHECK(format_usb_name(*r.n) == r.text);
  }
}

TEST_CASE("the USB device whose directory holds a device or interface, and how deep a name sits") {
  struct Row {
    const char* text;
    std::optional<std::string> parent;
    std::size_t depth;
  };
  const Row rows[] = {
      {"usb2", std::nullopt, 0}, {"2-0:1.0", "usb2", 1},     {"2-1", "usb2", 1},
      {"2-1:1.0", "2-1", 2},     {"2-1.4", "2-1", 2},        {"2-1.4.3:2.1", "2-1.4.3", 4},
      {"2-1.4.3", "2-1.4", 3},   {"host6", std::nullopt, 0}, {"0000:00:14.0", std::nullopt, 0},
      {"2-01", "usb2", 1},  // parses as port 1; the parent "usb2" is still right
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(usb_parent_name(r.text) == r.parent);
    CHECK(usb_name_depth(r.text) == r.depth);
  }
}

TEST_CASE("PCI uevent id pairs: PCI_ID and PCI_SUBSYS_ID") {
  using Pair = std::pair<std::uint16_t, std::uint16_t>;
  CHECK(parse_pci_id_pair("8086:7A38") == Pair{0x8086, 0x7a38});
  CHECK(parse_pci_id_pair("1043:8882") == Pair{0x1043, 0x8882});
  CHECK(parse_pci_id_pair("0000:0000") == Pair{0, 0});
  CHECK_FALSE(parse_pci_id_pair("8086"));
  CHECK_FALSE(parse_pci_id_pair("8086:"));
  CHECK_FALSE(parse_pci_id_pair(":7A38"));
  CHECK_FALSE(parse_pci_id_pair("18086:7A38"));
  CHECK_FALSE(parse_pci_id_pair("8086:7A3G"));
  CHECK_FALSE(parse_pci_id_pair(""));
}

TEST_CASE("physical_location yes/no") {
  CHECK(parse_yes_no("yes\n") == true);
  CHECK(parse_yes_no("no") == false);
  CHECK_FALSE(parse_yes_no("front"));
}

TEST_CASE("usb-storage quirks module parameter") {
  auto q = parse_storage_quirks("174c:55aa:u,0bc2:ab20:um, 152d:0578:U\n");
  REQUIRE(q.size() == 3);
  CHECK(q[0] == StorageQuirk{0x174c, 0x55aa, "u"});
  CHECK(q[0].ignore_uas());
  CHECK(q[1].flags == "um");
  CHECK(q[1].ignore_uas());
  CHECK(q[2].vendor_id == 0x152d);
  CHECK(q[2].ignore_uas());
  CHECK(parse_storage_quirks("").empty());
  CHECK(parse_storage_quirks("(null)").empty());
  CHECK(parse_storage_quirks("zz:55aa:u").empty());
  auto m = parse_storage_quirks("0781:5591:m,bad,1:2");
  REQUIRE(m.size() == 1);
  CHECK_FALSE(m[0].ignore_uas());
}

TEST_CASE("uevent KEY=VALUE") {
  auto u = parse_uevent(
      "DEVTYPE=usb_interface\nDRIVER=uas\nPRODUCT=781/558c/"
      "1012\nnonsense\nMODALIAS=usb:v0781p558Cd1012dc00\n");
  CHECK(u.size() == 4);
  CHECK(u["DRIVER"] == "uas");
  CHECK(u["PRODUCT"] == "781/558c/1012");
  CHECK(parse_uevent("").empty());
}

TEST_CASE("PCI addresses") {
  auto a = parse_pci_address("0000:00:1d.7");
  REQUIRE(a);
  CHECK(a->device == 0x1d);
  CHECK(a->function == 7);
  CHECK(a->same_slot(*parse_pci_address("0000:00:1d.0")));
  CHECK_FALSE(a->same_slot(*parse_pci_address("0000:00:1a.0")));
  CHECK(parse_pci_address("0009:03:00.0")->domain == 9);
  CHECK_FALSE(parse_pci_address("0000:00:1d"));
  CHECK_FALSE(parse_pci_address("0000:00:20.0"));
  CHECK_FALSE(parse_pci_address("fe9c0000.usb"));
}

TEST_CASE("host controller kind from the PCI class and from the driver") {
  CHECK(hcd_kind_from_class(0x0c0300) == HcdKind::Uhci);
  CHECK(hcd_kind_from_class(0x0c0310) == HcdKind::Ohci);
  CHECK(hcd_kind_from_class(0x0c0320) == HcdKind::Ehci);
  CHECK(hcd_kind_from_class(0x0c0330) == HcdKind::Xhci);
  CHECK(hcd_kind_from_class(0x0c0340) == HcdKind::Usb4);
  CHECK(hcd_kind_from_class(0x0c03fe) == HcdKind::Unknown);
  CHECK_FALSE(hcd_kind_from_class(0x060400));
  // PCI and platform drivers, the SoCs' own (issue 39): every row of the driver table.
  const std::pair<const char*, HcdKind> drivers[] = {
      {"xhci_hcd", HcdKind::Xhci},      {"xhci-hcd", HcdKind::Xhci},    {"ehci-pci", HcdKind::Ehci},
      {"ehci-platform", HcdKind::Ehci}, {"ehci-omap", HcdKind::Ehci},   {"ehci-orion", HcdKind::Ehci},
      {"ohci-platform", HcdKind::Ohci}, {"uhci_hcd", HcdKind::Uhci},    {"ci_hdrc", HcdKind::Ehci},
      {"dwc2", HcdKind::Otg},           {"dwc_otg", HcdKind::Otg},      {"musb-hdrc", HcdKind::Otg},
      {"", HcdKind::Unknown},           {"pcieport", HcdKind::Unknown},
  };
  for (const auto& row : drivers) {
    CAPTURE(row.first);  // not a structured binding: clang 14 cannot capture one in CAPTURE's lambda
    CHECK(hcd_kind_from_driver(row.first) == row.second);
  }
}

TEST_CASE("transport of non-USB disks from the syspath") {
  CHECK(transport_from_syspath("/sys/devices/pci0000:00/0000:00:1d.0/0000:3c:00.0/nvme/nvme0/nvme0n1") ==
        "nvme");
  CHECK(transport_from_syspath(
            "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda") == "sata");
  CHECK(transport_from_syspath("/sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda") == "virtio");
  CHECK(transport_from_syspath("/sys/devices/virtual/block/loop0") == "loop");
  CHECK(transport_from_syspath("/sys/devices/virtual/block/dm-0") == "virtual");
  CHECK(transport_from_syspath(
            "/sys/devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0") == "mmc");
  CHECK(transport_from_syspath("/sys/devices/pci0000:00/0000:00:1f.2/host0/target0:0:0/0:0:0:0/block/sda") ==
        "scsi");
  CHECK(transport_from_syspath("/sys/devices/weird/xyz") == "unknown");
}

TEST_CASE("symlink resolution is lexical") {
  CHECK(resolve_link("/sys/devices/a/usb1/1-1", "../1-0:1.0/usb1-port1") ==
        "/sys/devices/a/usb1/1-0:1.0/usb1-port1");
  CHECK(resolve_link("/sys/devices/x/y", "../../../bus/usb/drivers/uas") == "/sys/bus/usb/drivers/uas");
  CHECK(resolve_link("/sys/a", "/sys/b/./c") == "/sys/b/c");
  CHECK(resolve_link("/", "../..") == "/");
}

TEST_CASE("uevent triplets") {
  using T = std::array<std::uint32_t, 3>;
  CHECK(parse_triplet("781/558c/1012", 16) == T{0x781, 0x558c, 0x1012});
  CHECK(parse_triplet("8/6/80", 10) == T{8, 6, 80});
  CHECK(parse_triplet("9/0/2\n", 10) == T{9, 0, 2});
  CHECK_FALSE(parse_triplet("8/6", 10));
  CHECK_FALSE(parse_triplet("8/x/80", 10));
  CHECK_FALSE(parse_triplet("8//80", 10));
  CHECK_FALSE(parse_triplet("-1/2/3", 10));
}
