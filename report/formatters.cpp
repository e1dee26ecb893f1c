#include "report/formatters.hpp"

namespace usbsat::report {

std::string format_gts(double gts) { return fmt::format("{:g}", gts); }

std::string format_pcie_link(const topology::PcieLink& l) {
  auto side = [](std::optional<double> s, std::optional<unsigned> w) {
    std::string out;
    if (s) out = format_gts(*s) + " GT/s";
    if (w) out += (out.empty() ? "x" : " x") + std::to_string(*w);
    return out;
  };
  std::string out = side(l.speed_gts, l.width);
  if (l.degraded()) out += " (max " + side(l.max_speed_gts, l.max_width) + ")";
  return out;
}

}  // namespace usbsat::report
