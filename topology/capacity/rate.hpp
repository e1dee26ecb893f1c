#pragma once
/// The Bandwidth unit type (payload bytes per second), how users type a rate, and its Gb/s figure.
///
/// Units: MB/s means 10^6 bytes per second everywhere (never MiB/s). A capacity is *payload* throughput,
/// what a sequential reader can move, not the signalling rate.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

/// A data rate. Stored as whole bytes per second: payload throughput is what usbsat measures and
/// predicts, and integer storage makes comparisons, table look-ups and max-flow capacities exact.
/// (STYLE G9 sketches bits_per_s; bytes avoid a factor of 8 at every MB/s boundary.)
struct Bandwidth {
  std::uint64_t bytes_per_s = 0;

  static constexpr Bandwidth from_bytes_per_s(std::uint64_t b) { return Bandwidth{b}; }
  /// MB/s (10^6 B/s), rounded to the nearest byte per second; negative values and NaN clamp to zero, values
  /// beyond the type (an absurd figure from input) saturate at its maximum instead of overflowing.
  static constexpr Bandwidth from_mbs(double mbs) {
    const double b = mbs * 1e6 + 0.5;
    if (!(mbs > 0)) return Bandwidth{0};
    if (b >= 0x1p64) return Bandwidth{UINT64_MAX};
    return Bandwidth{static_cast<std::uint64_t>(b)};
  }
  /// Signalling-style rate in Mb/s (10^6 bit/s), e.g. 480 -> 60 MB/s.
  static constexpr Bandwidth from_mbit(double mbit) { return from_mbs(mbit / 8.0); }
  static constexpr Bandwidth zero() { return Bandwidth{0}; }

  constexpr double mbs() const { return static_cast<double>(bytes_per_s) / 1e6; }
  constexpr bool is_zero() const { return bytes_per_s == 0; }

  constexpr auto operator<=>(const Bandwidth&) const = default;
  constexpr Bandwidth operator+(Bandwidth o) const { return Bandwidth{bytes_per_s + o.bytes_per_s}; }
  /// Saturating subtraction: a rate never goes negative.
  constexpr Bandwidth operator-(Bandwidth o) const {
    return Bandwidth{bytes_per_s > o.bytes_per_s ? bytes_per_s - o.bytes_per_s : 0};
  }
  constexpr Bandwidth operator*(double f) const { return from_mbs(mbs() * f); }
};

/// A rate as users type it: "40M", "40MB/s", "40 MB/s", "1.5G", "800k", "12Mb", or a bare "400" (MB/s, the
/// unit usbsat uses everywhere: 10^6 B/s). K/M/G are SI multiples of bytes per second; a trailing "B", "B/s"
/// or "/s" is optional and case-insensitive. nullopt for garbage, zero or negative rates; a rate beyond 1e15
/// B/s ("1e30") saturates to the largest Bandwidth, so every caller's range check names it out of range.
std::optional<Bandwidth> parse_rate(std::string_view s);

/// A rate in Gb/s (10^9 bit/s), the unit of USB4 links and their tunnels: "36 Gb/s", "17.28 Gb/s". The one
/// formatter of that figure (topology/words/describe.hpp says every other rate; the capacity model labels its
/// assumptions with this one, which is why it sits with the type).
std::string gbit_text(Bandwidth b);

}  // namespace usbsat::topology
