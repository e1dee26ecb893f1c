#pragma once
/// Pure parsers for the thunderbolt bus (USB4 and Thunderbolt routers, their links and ports), as the kernel
/// writes them (Documentation/ABI/testing/sysfs-bus-thunderbolt, drivers/thunderbolt/switch.c and
/// usb4_port.c). Each returns std::optional: nullopt for text the kernel does not write (STYLE G5).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

/// A router's place in its domain: "0-0" is the host router of domain 0, "0-1" the router on the host's
/// port 1, "0-301" the router on port 3 of that one (the route string in hex, one hop per nibble pair,
/// nearest hop lowest).
struct RouterAddress {
  unsigned domain = 0;
  std::uint64_t route = 0;
  bool operator==(const RouterAddress&) const = default;
  /// The host router (route 0).
  bool is_host() const { return route == 0; }
  /// The address of the router one hop closer to the host ("0-301" -> "0-1", "0-1" -> "0-0"); nullopt for
  /// the host router.
  std::optional<RouterAddress> parent() const;
};

/// "0-0", "1-3", "0-301"; nullopt for other thunderbolt devices ("domain0", "0-0:1.1" retimers and
/// XDomains, "usb4_port1") and garbage.
std::optional<RouterAddress> parse_router_name(std::string_view name);
/// The kernel name of a router address: "0-301".
std::string router_name(const RouterAddress& a);

/// "usb4_port1" -> 1; nullopt for anything else.
std::optional<unsigned> parse_usb4_port_name(std::string_view name);

/// What a USB4 port's `link` says is connected: a USB4 router, a Thunderbolt 3 router, or nothing.
enum class Usb4LinkType : std::uint8_t { None, Usb4, Tbt };
/// "usb4", "tbt", "none" (a trailing newline allowed).
std::optional<Usb4LinkType> parse_usb4_link_type(std::string_view text);
std::string_view to_string(Usb4LinkType t);

/// A router's `rx_speed`/`tx_speed`: the per-lane rate in Gb/s ("20.0 Gb/s" -> 20; switch.c prints
/// "%u.0 Gb/s"). Only the rates the kernel reports (tb_port_get_link_speed: 10 for Thunderbolt 1-2 and USB4
/// Gen 2, 20 for Thunderbolt 3 and USB4 Gen 3, 40 for USB4 v2 Gen 4); any other number, fractions other than
/// ".0" and garbage -> nullopt.
std::optional<unsigned> parse_tb_lane_speed(std::string_view text);

/// A router's `rx_lanes`/`tx_lanes`: 1 or 2, or 3 on the wide side of an asymmetric USB4 v2 link
/// (switch.c lanes_show); anything else (0, -1, 4294967295, garbage) -> nullopt.
std::optional<unsigned> parse_tb_lanes(std::string_view text);
/// Whether rx and tx lane counts can be one link's: both 1 or 2, or 3 one way and 1 the other (asymmetric).
bool tb_lanes_consistent(unsigned rx, unsigned tx);

/// The highest router `generation` taken as a fact: 1-3 Thunderbolt 1-3, 4 USB4; later generations up to
/// this one are taken as USB4 ones ("4+"), beyond it the number is garbage.
inline constexpr unsigned kMaxTbGeneration = 8;
/// A router's `generation`: 1 to kMaxTbGeneration; 0, negative, larger numbers and garbage -> nullopt.
std::optional<unsigned> parse_tb_generation(std::string_view text);

}  // namespace usbsat::topology
