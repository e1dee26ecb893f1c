#pragma once
/// USB host controllers inside a system-on-chip: platform devices, not PCI functions, so neither a PCI class
/// nor the PCI hwdb names them. Their driver says the kind (sysfs_parse.hpp: hcd_kind_from_driver) and the
/// device tree says the chip: the platform device's `OF_COMPATIBLE_<n>` uevent properties (or its
/// `of_node/compatible`), "brcm,bcm2835-usb", "rockchip,rk3399-dwc3", "xlnx,zynqmp-dwc3". Pure, table-tested
/// (tests/topology/soc_controllers_test.cpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::topology {

/// A SoC controller's name for ControllerInfo's vendor_name/model_name: {"Rockchip", "RK3399 DWC3
/// (rockchip,rk3399-dwc3)"}; an unknown vendor prefix keeps the raw compatible string as the model.
struct SocControllerName {
  std::string vendor, model;
  bool operator==(const SocControllerName&) const = default;
};

/// The name from the device tree `compatible` strings of the controller and its ancestors, nearest first
/// (dwc3's `xhci-hcd.0.auto` carries none itself; its parent, the DWC3 core, "snps,dwc3", and the SoC's glue
/// above it "rockchip,rk3399-dwc3" do). A SoC vendor's string wins over an IP vendor's (Synopsys, generic
/// "generic-ehci"); `of_fullname` (OF_FULLNAME, "/axi/pcie@120000/rp1/usb@200000") names a controller inside
/// the Raspberry Pi 5's RP1 I/O chip. nullopt when there is no string at all.
std::optional<SocControllerName> soc_controller_name(const std::vector<std::string>& compatibles,
                                                     std::string_view of_fullname = {});

/// `of_node/compatible` as the kernel writes it: strings each ended by NUL ("a\0b\0"); empty ones dropped.
std::vector<std::string> split_compatible(std::string_view nul_separated);

}  // namespace usbsat::topology
