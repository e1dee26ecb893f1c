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
/// "%u.0 Gb/s"). Zero, fractions other than ".0" and garbage -> nullopt.
std::optional<unsigned> parse_tb_lane_speed(std::string_view text);

}  // namespace usbsat::topology
