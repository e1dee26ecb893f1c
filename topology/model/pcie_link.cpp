#include "topology/model/pcie_link.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "topology/base/text.hpp"

namespace usbsat::topology {
std::optional<double> parse_pcie_speed(std::string_view s) {
  // Kernel spellings: "2.5 GT/s", "5 GT/s", "8 GT/s" (< 4.15), "8.0 GT/s PCIe" (>= 5.x), "Unknown speed".
  s = trim(s);
  const auto unit = s.find("GT/s");
  if (unit == std::string_view::npos) return std::nullopt;
  const auto num = trim(s.substr(0, unit));
  double v = 0;
  const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  // PCIe 7.0 signals at 128 GT/s; anything beyond a generation or two more (inf, 1e300) is not a link.
  if (ec != std::errc{} || ptr != num.data() + num.size() || !std::isfinite(v) || !(v > 0) || v > 512)
    return std::nullopt;
  return v;
}

std::optional<unsigned> parse_pcie_width(std::string_view s) {
  s = trim(s);
  if (!s.empty() && (s.front() == 'x' || s.front() == 'X')) s.remove_prefix(1);
  unsigned v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || v == 0 || v > 32) return std::nullopt;
  return v;
}

std::optional<unsigned> pcie_generation(double gts) {
  constexpr std::array kRates{2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  for (std::size_t i = 0; i < kRates.size(); ++i)
    if (std::fabs(gts - kRates[i]) < 0.01) return static_cast<unsigned>(i + 1);
  return std::nullopt;
}

std::string pcie_rate_text(std::optional<double> gts, std::optional<unsigned> width) {
  std::string out;
  if (gts) out = fmt::format("{:g} GT/s", *gts);
  if (width) out += fmt::format("{}x{}", out.empty() ? "" : " ", *width);
  return out;
}

std::string pcie_link_text(const PcieLink& l) {
  if (l.empty()) return "";
  const std::string now = pcie_rate_text(l.speed_gts, l.width);
  const std::string max = pcie_rate_text(l.max_speed_gts, l.max_width);
  // "Unknown" speed with width 0 (a link that is down, or a kernel that cannot tell): say so, with the
  // maximum when known.
  if (now.empty()) return max.empty() ? "PCIe link unknown" : "PCIe link unknown (max " + max + ")";
  return "PCIe " + now + (l.degraded() ? " (max " + max + ")" : "");
}

}  // namespace usbsat::topology
