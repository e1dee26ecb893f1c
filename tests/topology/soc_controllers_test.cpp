// SoC controllers' names from the device tree: the vendor prefix table, the chip spelling, the IP core, RP1.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "topology/scan/soc_controllers.hpp"

using namespace usbsat::topology;

TEST_CASE("soc_controller_name: the SoC's compatible names the chip, the IP core follows") {
  struct Row {
    std::vector<std::string> compatibles;  // nearest first, as the scan collects them
    const char* fullname;
    SocControllerName want;
  };
  const Row rows[] = {
      // Raspberry Pi 0-4's OTG port: the BCM283x DWC2 (dwc2 / dwc_otg).
      {{"brcm,bcm2835-usb"}, "", {"Broadcom", "BCM2835 DWC2 (brcm,bcm2835-usb)"}},
      // DWC3's xhci-hcd.0.auto: the core's "snps,dwc3", the glue's SoC string above it wins.
      {{"snps,dwc3", "rockchip,rk3399-dwc3"}, "", {"Rockchip", "RK3399 DWC3 (rockchip,rk3399-dwc3)"}},
      {{"snps,dwc3", "xlnx,zynqmp-dwc3"}, "", {"Xilinx", "ZynqMP DWC3 (xlnx,zynqmp-dwc3)"}},
      {{"fsl,imx8mq-dwc3", "snps,dwc3"}, "", {"NXP", "i.MX 8M Quad DWC3 (fsl,imx8mq-dwc3)"}},
      {{"allwinner,sun50i-h6-ehci", "generic-ehci"}, "", {"Allwinner", "H6 (allwinner,sun50i-h6-ehci)"}},
      {{"amlogic,meson-g12a-usb-ctrl"}, "", {"Amlogic", "Meson G12A (amlogic,meson-g12a-usb-ctrl)"}},
      {{"ti,ehci-omap"}, "", {"Texas Instruments", "OMAP (ti,ehci-omap)"}},
      {{"qcom,sdm845-dwc3", "qcom,dwc3"}, "", {"Qualcomm", "SDM845 DWC3 (qcom,sdm845-dwc3)"}},
      // Only the IP vendor: the core is named, not a chip.
      {{"snps,dwc3"}, "", {"Synopsys DesignWare", "DWC3 (snps,dwc3)"}},
      // An unknown vendor: the raw string.
      {{"acme,usb-host"}, "", {"", "acme,usb-host"}},
      {{"generic-ehci"}, "", {"", "generic-ehci"}},
      // Raspberry Pi 5: RP1's DWC3s, told by the device tree path below RP1.
      {{"snps,dwc3"},
       "/axi/pcie@120000/rp1/usb@200000",
       {"Raspberry Pi", "RP1 DWC3 (/axi/pcie@120000/rp1/usb@200000)"}},
  };
  for (const auto& r : rows) {
    CAPTURE(r.compatibles.front());
    const auto got = soc_controller_name(r.compatibles, r.fullname);
    REQUIRE(got);
    CHECK(got->vendor == r.want.vendor);
    CHECK(got->model == r.want.model);
  }
  CHECK_FALSE(soc_controller_name({}, ""));
}

TEST_CASE("split_compatible: of_node/compatible's NUL-ended strings") {
  using namespace std::string_literals;
  CHECK(split_compatible("rockchip,rk3399-dwc3\0snps,dwc3\0"s) ==
        std::vector<std::string>{"rockchip,rk3399-dwc3", "snps,dwc3"});
  CHECK(split_compatible("brcm,bcm2835-usb") == std::vector<std::string>{"brcm,bcm2835-usb"});
  CHECK(split_compatible(""s).empty());
  CHECK(split_compatible("\0\0"s).empty());
}
