#include "topology/model/sysfs_parse.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace usbsat::topology {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::optional<std::uint64_t> parse_hex_digits(std::string_view s, std::size_t max_digits) {
  s = trim(s);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > max_digits || !std::all_of(s.begin(), s.end(), is_hex)) return std::nullopt;
  std::uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto pos = s.find(sep);
    out.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) break;
    s.remove_prefix(pos + 1);
  }
  return out;
}

std::optional<unsigned> parse_small(std::string_view s) {
  if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), is_digit)) return std::nullopt;
  unsigned v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace

std::optional<std::uint16_t> parse_hex16(std::string_view s) {
  auto v = parse_hex_digits(s, 4);
  return v ? std::optional<std::uint16_t>(static_cast<std::uint16_t>(*v)) : std::nullopt;
}

std::optional<std::uint32_t> parse_hex32(std::string_view s) {
  auto v = parse_hex_digits(s, 8);
  return v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
}

std::optional<std::pair<std::uint16_t, std::uint16_t>> parse_pci_id_pair(std::string_view s) {
  const auto colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto vendor = parse_hex16(s.substr(0, colon)), device = parse_hex16(s.substr(colon + 1));
  if (!vendor || !device) return std::nullopt;
  return std::pair{*vendor, *device};
}

std::optional<std::uint8_t> parse_hex8(std::string_view s) {
  auto v = parse_hex_digits(s, 2);
  return v ? std::optional<std::uint8_t>(static_cast<std::uint8_t>(*v)) : std::nullopt;
}

std::optional<std::uint64_t> parse_uint(std::string_view s) {
  s = trim(s);
  if (s.empty() || !std::all_of(s.begin(), s.end(), is_digit)) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::uint16_t> parse_bcd_version(std::string_view s) {
  s = trim(s);
  const auto dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 2 || s.size() - dot - 1 != 2) return std::nullopt;
  const auto major = s.substr(0, dot), minor = s.substr(dot + 1);
  if (!std::all_of(major.begin(), major.end(), is_hex) || !std::all_of(minor.begin(), minor.end(), is_hex))
    return std::nullopt;
  // The kernel prints "%2x.%02x" of the two BCD bytes, so the digits are hex nibbles.
  auto maj = parse_hex_digits(major, 2), min = parse_hex_digits(minor, 2);
  if (!maj || !min) return std::nullopt;
  return static_cast<std::uint16_t>((*maj << 8) | *min);
}

UsbSpeed speed_from_bcd_usb(std::uint16_t bcd) {
  if (bcd >= 0x0300) return UsbSpeed::Super;
  if (bcd >= 0x0200) return UsbSpeed::High;
  return UsbSpeed::Full;
}

std::optional<unsigned> parse_max_power(std::string_view s) {
  s = trim(s);
  if (s.size() < 3 || s.substr(s.size() - 2) != "mA") return std::nullopt;
  return parse_small(s.substr(0, s.size() - 2));
}

std::optional<unsigned> parse_maxchild(std::string_view s) {
  const auto n = parse_uint(s);
  if (!n || *n > kMaxHubPorts) return std::nullopt;
  return static_cast<unsigned>(*n);
}

std::optional<PortName> parse_port_name(std::string_view s) {
  s = trim(s);
  const auto pos = s.rfind("-port");
  if (pos == std::string_view::npos || pos == 0) return std::nullopt;
  auto num = parse_small(s.substr(pos + 5));
  if (!num || *num == 0) return std::nullopt;
  const auto hub = s.substr(0, pos);
  auto parsed = parse_usb_name(hub);
  if (!parsed || parsed->config) return std::nullopt;
  return PortName{std::string(hub), *num};
}

std::string format_port_name(const PortName& p) {
  return port_name_for(p.hub, p.number);
}

std::string port_name_for(std::string_view hub_name, unsigned port) {
  return std::string(hub_name) + "-port" + std::to_string(port);
}

std::optional<UsbName> parse_usb_name(std::string_view s) {
  s = trim(s);
  UsbName n;
  if (s.starts_with("usb")) {
    auto bus = parse_small(s.substr(3));
    if (!bus || *bus == 0) return std::nullopt;
    n.bus = *bus;
    return n;
  }
  std::string_view dev = s, intf;
  if (auto colon = s.find(':'); colon != std::string_view::npos) {
    dev = s.substr(0, colon);
    intf = s.substr(colon + 1);
  }
  const auto dash = dev.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  auto bus = parse_small(dev.substr(0, dash));
  if (!bus || *bus == 0) return std::nullopt;
  n.bus = *bus;
  for (auto part : split(dev.substr(dash + 1), '.')) {
    auto p = parse_small(part);
    if (!p) return std::nullopt;
    n.ports.push_back(*p);
  }
  // "1-0:1.0" is the root hub's interface: port list {0} means "the root hub itself".
  if (n.ports == std::vector<unsigned>{0}) {
    if (intf.empty()) return std::nullopt;
    n.ports.clear();
  } else if (std::find(n.ports.begin(), n.ports.end(), 0u) != n.ports.end()) {
    return std::nullopt;
  }
  if (!intf.empty()) {
    auto parts = split(intf, '.');
    if (parts.size() != 2) return std::nullopt;
    auto c = parse_small(parts[0]), i = parse_small(parts[1]);
    if (!c || !i) return std::nullopt;
    n.config = c;
    n.interface = i;
  }
  return n;
}

std::string format_usb_name(const UsbName& n) {
  std::string out;
  if (n.ports.empty() && !n.config) return "usb" + std::to_string(n.bus);
  out = std::to_string(n.bus) + "-";
  if (n.ports.empty()) out += "0";
  for (std::size_t i = 0; i < n.ports.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(n.ports[i]);
  }
  if (n.config && n.interface) out += ":" + std::to_string(*n.config) + "." + std::to_string(*n.interface);
  return out;
}

std::optional<std::string> usb_parent_name(std::string_view name) {
  auto n = parse_usb_name(name);
  if (!n) return std::nullopt;
  if (n->config) {
    n->config.reset();
    n->interface.reset();
  } else if (n->ports.empty()) {
    return std::nullopt;
  } else {
    n->ports.pop_back();
  }
  return format_usb_name(*n);
}

std::size_t usb_name_depth(std::string_view name) {
  const auto n = parse_usb_name(name);
  return n ? n->ports.size() + (n->config ? 1 : 0) : 0;
}

std::optional<bool> parse_yes_no(std::string_view s) {
  s = trim(s);
  if (s == "yes" || s == "1" || s == "true") return true;
  if (s == "no" || s == "0" || s == "false") return false;
  return std::nullopt;
}

std::vector<StorageQuirk> parse_storage_quirks(std::string_view s) {
  std::vector<StorageQuirk> out;
  s = trim(s);
  if (s.empty() || s == "(null)") return out;
  for (auto entry : split(s, ',')) {
    auto fields = split(trim(entry), ':');
    if (fields.size() != 3) continue;
    auto vid = parse_hex_digits(fields[0], 4), pid = parse_hex_digits(fields[1], 4);
    if (!vid || !pid || fields[0].starts_with("0x") || fields[1].starts_with("0x")) continue;
    out.push_back(
        {static_cast<std::uint16_t>(*vid), static_cast<std::uint16_t>(*pid), std::string(fields[2])});
  }
  return out;
}

std::map<std::string, std::string, std::less<>> parse_uevent(std::string_view text) {
  std::map<std::string, std::string, std::less<>> out;
  for (auto line : split(text, '\n')) {
    line = trim(line);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.insert_or_assign(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
  }
  return out;
}

std::optional<std::array<std::uint32_t, 3>> parse_triplet(std::string_view s, int base) {
  auto parts = split(trim(s), '/');
  if (parts.size() != 3) return std::nullopt;
  std::array<std::uint32_t, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto p = parts[i];
    if (p.empty() || p.size() > 8) return std::nullopt;
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), out[i], base);
    if (ec != std::errc{} || end != p.data() + p.size()) return std::nullopt;
  }
  return out;
}

std::optional<PciAddress> parse_pci_address(std::string_view s) {
  s = trim(s);
  // dddd:bb:dd.f
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return std::nullopt;
  auto dom = parse_hex_digits(s.substr(0, 4), 4), bus = parse_hex_digits(s.substr(5, 2), 2),
       dev = parse_hex_digits(s.substr(8, 2), 2), fn = parse_hex_digits(s.substr(11, 1), 1);
  if (!dom || !bus || !dev || !fn || *dev > 0x1f || *fn > 7) return std::nullopt;
  return PciAddress{static_cast<std::uint32_t>(*dom), static_cast<std::uint8_t>(*bus),
                    static_cast<std::uint8_t>(*dev), static_cast<std::uint8_t>(*fn)};
}

std::optional<HcdKind> hcd_kind_from_class(std::uint32_t class_code) {
  if ((class_code >> 8) != 0x0c03) return std::nullopt;
  switch (class_code & 0xff) {
    case 0x00:
      return HcdKind::Uhci;
    case 0x10:
      return HcdKind::Ohci;
    case 0x20:
      return HcdKind::Ehci;
    case 0x30:
      return HcdKind::Xhci;
    case 0x40:
      return HcdKind::Usb4;
    default:
      return HcdKind::Unknown;
  }
}

HcdKind hcd_kind_from_driver(std::string_view d) {
  // Substrings of the drivers' names (PCI "xhci_hcd", "ehci-pci"; platform "xhci-hcd" (xhci-plat, DWC3's
  // host), "ehci-platform", "ehci-omap", "ehci-orion", "ohci-platform"; the SoCs' own "dwc2", the Raspberry
  // Pi kernel's "dwc_otg", Mentor's "musb-hdrc"; "ci_hdrc", ChipIdea's dual-role core, is EHCI-compatible).
  static constexpr std::array<std::pair<std::string_view, HcdKind>, 8> kDrivers{{
      {"xhci", HcdKind::Xhci},
      {"ehci", HcdKind::Ehci},
      {"ohci", HcdKind::Ohci},
      {"uhci", HcdKind::Uhci},
      {"ci_hdrc", HcdKind::Ehci},
      {"dwc2", HcdKind::Otg},
      {"dwc_otg", HcdKind::Otg},
      {"musb", HcdKind::Otg},
  }};
  for (const auto& [needle, kind] : kDrivers)
    if (d.find(needle) != std::string_view::npos) return kind;
  return HcdKind::Unknown;
}

std::string transport_from_syspath(std::string_view p) {
  auto has = [&](std::string_view needle) { return p.find(needle) != std::string_view::npos; };
  const auto slash = p.rfind('/');
  const auto name = slash == std::string_view::npos ? p : p.substr(slash + 1);
  if (has("/virtual/block/loop") || name.starts_with("loop")) return "loop";
  if (has("/nvme/") || name.starts_with("nvme")) return "nvme";
  if (has("/virtual/")) return "virtual";
  if (has("/mmc_host/") || name.starts_with("mmcblk")) return "mmc";
  if (has("/virtio")) return "virtio";
  if (has("/ata")) return "sata";
  if (has("/usb")) return "usb";
  if (has("/host") && has("/target")) return "scsi";
  return "unknown";
}

std::string resolve_link(std::string_view link_dir, std::string_view target) {
  std::vector<std::string_view> parts;
  auto push_all = [&](std::string_view path) {
    for (auto part : split(path, '/')) {
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (!parts.empty()) parts.pop_back();
      } else {
        parts.push_back(part);
      }
    }
  };
  if (!target.starts_with('/')) push_all(link_dir);
  push_all(target);
  std::string out;
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  return out.empty() ? "/" : out;
}

}  // namespace usbsat::topology
