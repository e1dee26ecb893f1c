#include "topology/capacity/rate.hpp"

#include <charconv>

#include <cctype>

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "topology/base/text.hpp"

namespace usbsat::topology {

namespace {
bool iequals_ascii(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::optional<Bandwidth> parse_rate(std::string_view s) {
  s = trim(s);
  // Unit suffix: an optional "B/s", "B" or "/s" after K/M/G (case-insensitive).
  for (std::string_view tail : {"b/s", "/s", "b"})
    if (s.size() > tail.size() && iequals_ascii(s.substr(s.size() - tail.size()), tail)) {
      s.remove_suffix(tail.size());
      break;
    }
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double mult = 0;
  switch (std::tolower(static_cast<unsigned char>(s.back()))) {
    case 'k':
      mult = 1e3;
      break;
    case 'm':
      mult = 1e6;
      break;
    case 'g':
      mult = 1e9;
      break;
    default:
      mult = std::isdigit(static_cast<unsigned char>(s.back())) ? 1e6 : 0;  // a bare number is MB/s
  }
  if (mult == 0) return std::nullopt;
  if (!std::isdigit(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  s = trim(s);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  // Beyond any link (1e15 B/s) the rate saturates instead of overflowing the conversion: a caller's range
  // check then refuses "1e30" as out of range by name, where nullopt would call it garbage.
  if (v * mult > 1e15) return Bandwidth::from_bytes_per_s(std::numeric_limits<std::uint64_t>::max());
  // Below half a byte per second ("1e-7") it would round to a zero rate: it saturates at the smallest one (1
  // B/s) instead, so a caller's range check names it out of range, as for the largest.
  return Bandwidth::from_bytes_per_s(
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(v * mult))));
}

std::string gbit_text(Bandwidth b) {
  return fmt::format("{:g} Gb/s", static_cast<double>(b.bytes_per_s) * 8 / 1e9);
}

}  // namespace usbsat::topology
