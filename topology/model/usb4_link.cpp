#include "topology/model/usb4_link.hpp"

#include <charconv>

#include <fmt/format.h>

#include "topology/base/string_table.hpp"
#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {
template <class T>
std::optional<T> whole(std::string_view s, int base) {
  T v{};
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}
}  // namespace

std::optional<RouterAddress> RouterAddress::parent() const {
  if (is_host()) return std::nullopt;
  // Each hop is one byte of the route string; the farthest hop is the highest non-zero byte.
  std::uint64_t up = route;
  for (int shift = 56; shift >= 0; shift -= 8)
    if ((route >> shift) & 0xff) {
      up = route & ~(std::uint64_t{0xff} << shift);
      break;
    }
  return RouterAddress{domain, up};
}

std::optional<RouterAddress> parse_router_name(std::string_view name) {
  const auto dash = name.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto domain = whole<unsigned>(name.substr(0, dash), 10);
  const auto route_text = name.substr(dash + 1);
  if (!domain || route_text.size() > 16 || route_text.starts_with('+')) return std::nullopt;
  const auto route = whole<std::uint64_t>(route_text, 16);
  if (!route) return std::nullopt;
  return RouterAddress{*domain, *route};
}

std::string router_name(const RouterAddress& a) {
  return fmt::format("{}-{:x}", a.domain, a.route);
}

std::optional<unsigned> parse_usb4_port_name(std::string_view name) {
  constexpr std::string_view kPrefix = "usb4_port";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  auto n = whole<unsigned>(name.substr(kPrefix.size()), 10);
  if (n && *n == 0) return std::nullopt;
  return n;
}

/// The usb4_port `link` attribute's words, read both ways.
constexpr StringTable<Usb4LinkType, 3> kUsb4LinkTypeNames{{{
    {Usb4LinkType::Usb4, "usb4"},
    {Usb4LinkType::Tbt, "tbt"},
    {Usb4LinkType::None, "none"},
}}};

std::optional<Usb4LinkType> parse_usb4_link_type(std::string_view text) {
  return kUsb4LinkTypeNames.parse(trim(text));
}

std::string_view to_string(Usb4LinkType t) {
  return kUsb4LinkTypeNames.name(t, "none");
}

std::optional<unsigned> parse_tb_lane_speed(std::string_view text) {
  text = trim(text);
  constexpr std::string_view kUnit = " Gb/s";
  if (!text.ends_with(kUnit)) return std::nullopt;
  text.remove_suffix(kUnit.size());
  if (text.ends_with(".0")) text.remove_suffix(2);
  const auto v = whole<unsigned>(text, 10);
  if (v && (*v == 10 || *v == 20 || *v == 40)) return v;
  return std::nullopt;
}

std::optional<unsigned> parse_tb_lanes(std::string_view text) {
  const auto v = whole<unsigned>(trim(text), 10);
  if (v && *v >= 1 && *v <= 3) return v;
  return std::nullopt;
}

bool tb_lanes_consistent(unsigned rx, unsigned tx) {
  if (rx == 3 || tx == 3) return rx + tx == 4;
  return rx >= 1 && rx <= 2 && tx >= 1 && tx <= 2;
}

std::optional<unsigned> parse_tb_generation(std::string_view text) {
  const auto v = whole<unsigned>(trim(text), 10);
  if (v && *v >= 1 && *v <= kMaxTbGeneration) return v;
  return std::nullopt;
}

}  // namespace usbsat::topology
