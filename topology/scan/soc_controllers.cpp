#include "topology/scan/soc_controllers.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace usbsat::topology {
namespace {

/// Device tree vendor prefixes (Documentation/devicetree/bindings/vendor-prefixes.yaml) of the SoCs that
/// carry USB hosts on small arm64 machines, and the IP vendors whose cores they license.
struct Vendor {
  std::string_view prefix, name;
  bool soc;  ///< a chip vendor (names the SoC), not an IP core's (Synopsys DesignWare) or "generic-"
};
constexpr std::array<Vendor, 17> kVendors{{
    {"brcm", "Broadcom", true},
    {"raspberrypi", "Raspberry Pi", true},
    {"rockchip", "Rockchip", true},
    {"amlogic", "Amlogic", true},
    {"allwinner", "Allwinner", true},
    {"qcom", "Qualcomm", true},
    {"fsl", "NXP", true},
    {"nxp", "NXP", true},
    {"xlnx", "Xilinx", true},
    {"ti", "Texas Instruments", true},
    {"mediatek", "MediaTek", true},
    {"samsung", "Samsung", true},
    {"marvell", "Marvell", true},
    {"nvidia", "NVIDIA", true},
    {"renesas", "Renesas", true},
    {"starfive", "StarFive", true},
    {"snps", "Synopsys DesignWare", false},
}};

/// SoC tokens whose spelling is not the upper-cased token (vendors' own names).
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kSocSpelling{{
    {"zynqmp", "ZynqMP"},
    {"imx8mq", "i.MX 8M Quad"},
    {"imx8mp", "i.MX 8M Plus"},
    {"imx8mm", "i.MX 8M Mini"},
    {"imx6q", "i.MX 6Quad"},
    {"imx7d", "i.MX 7Dual"},
    {"sun50i-h6", "H6"},
    {"sun50i-h616", "H616"},
    {"sun8i-h3", "H3"},
    {"meson-g12a", "Meson G12A"},
    {"meson-gxbb", "Meson GXBB"},
    {"meson-gxl", "Meson GXL"},
}};

/// Tokens of a compatible's model part that name the USB IP, not the chip ("rk3399-dwc3" -> "rk3399").
constexpr std::array<std::string_view, 13> kIpTokens{"usb",  "usb2", "usb3",  "dwc3", "dwc2", "ehci", "ohci",
                                                     "xhci", "otg",  "hsotg", "ctrl", "host", "hcd"};
/// The IP cores worth naming beside the chip, as their compatible strings spell them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kIpNames{{
    {"dwc3", "DWC3"},
    {"dwc2", "DWC2"},
    {"bcm2835-usb", "DWC2"},  // the BCM283x OTG controller is a DesignWare DWC2 (its binding says so)
}};

const Vendor* vendor_of(std::string_view compatible) {
  const auto comma = compatible.find(',');
  if (comma == std::string_view::npos) return nullptr;
  for (const auto& v : kVendors)
    if (v.prefix == compatible.substr(0, comma)) return &v;
  return nullptr;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// "rk3399-dwc3" -> "RK3399", "zynqmp-dwc3" -> "ZynqMP", "ehci-omap" -> "OMAP"; "" when only IP tokens.
std::string soc_of(std::string_view model) {
  std::string chip;
  std::size_t start = 0;
  while (start <= model.size()) {
    const auto dash = std::min(model.find('-', start), model.size());
    const auto token = model.substr(start, dash - start);
    if (!token.empty() && std::find(kIpTokens.begin(), kIpTokens.end(), token) == kIpTokens.end())
      chip += (chip.empty() ? "" : "-") + std::string(token);
    start = dash + 1;
  }
  for (const auto& [token, spelling] : kSocSpelling)
    if (token == chip) return std::string(spelling);
  std::string out = upper(chip);
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

std::string_view ip_of(const std::vector<std::string>& compatibles) {
  for (const auto& c : compatibles)
    for (const auto& [needle, name] : kIpNames)
      if (c.find(needle) != std::string::npos) return name;
  return {};
}

}  // namespace

std::optional<SocControllerName> soc_controller_name(const std::vector<std::string>& compatibles,
                                                     std::string_view of_fullname) {
  const std::string ip(ip_of(compatibles));
  const auto with_ip = [&](std::string chip) { return ip.empty() ? chip : chip + " " + ip; };
  if (of_fullname.find("/rp1/") != std::string_view::npos)
    return SocControllerName{"Raspberry Pi", with_ip("RP1") + " (" + std::string(of_fullname) + ")"};
  if (compatibles.empty()) return std::nullopt;
  const std::string* pick = nullptr;
  for (const bool want_soc : {true, false})
    for (const auto& c : compatibles)
      if (const auto* v = vendor_of(c); !pick && v && v->soc == want_soc) pick = &c;
  if (!pick) return SocControllerName{"", compatibles.front()};
  const auto* v = vendor_of(*pick);
  const std::string_view model = std::string_view(*pick).substr(v->prefix.size() + 1);
  std::string chip = v->soc ? soc_of(model) : "";
  return SocControllerName{std::string(v->name), (chip.empty() ? ip : with_ip(chip)) + " (" + *pick + ")"};
}

std::vector<std::string> split_compatible(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    const auto end = std::min(s.find('\0', start), s.size());
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace usbsat::topology
