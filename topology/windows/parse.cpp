#include "topology/windows/parse.hpp"

#include <cctype>

#include "topology/base/text.hpp"
#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology::windows {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// The hex digits after `key` in an ID ("VEN_" in "PCI\VEN_8086&DEV_..."), exactly `digits` of them.
std::optional<std::uint32_t> id_field(std::string_view id, std::string_view key, std::size_t digits) {
  const std::string u = upper(id);
  for (std::size_t at = u.find(key); at != std::string::npos; at = u.find(key, at + 1)) {
    if (at > 0 && u[at - 1] != '\\' && u[at - 1] != '&') continue;  // "SUBSYS_" must not match "SYS_"
    const auto hex = std::string_view(u).substr(at + key.size(), digits);
    if (hex.size() != digits) return std::nullopt;
    if (auto v = parse_hex32(hex)) return v;
    return std::nullopt;
  }
  return std::nullopt;
}

/// "bus 3" style: the number after `word` in a comma-separated location string.
std::optional<std::uint64_t> number_after(std::string_view s, std::string_view word) {
  const auto at = s.find(word);
  if (at == std::string_view::npos) return std::nullopt;
  auto rest = s.substr(at + word.size());
  const auto end = rest.find(',');
  return parse_uint(trim(rest.substr(0, end)));
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::optional<std::string> bdf_from_location_info(std::string_view s) {
  s = trim(s);
  if (!s.starts_with("PCI bus ")) return std::nullopt;
  const auto bus = number_after(s, "PCI bus ");
  const auto dev = number_after(s, "device ");
  const auto fn = number_after(s, "function ");
  if (!bus || !dev || !fn || *bus > 0xff || *dev > 0x1f || *fn > 7) return std::nullopt;
  char out[16];
  std::snprintf(out, sizeof out, "0000:%02x:%02x.%x", static_cast<unsigned>(*bus),
                static_cast<unsigned>(*dev), static_cast<unsigned>(*fn));
  return std::string(out);
}

PciIds pci_ids(const std::vector<std::string>& hardware_ids, const std::vector<std::string>& compatible_ids) {
  PciIds ids;
  const auto narrow16 = [](std::optional<std::uint32_t> v) -> std::optional<std::uint16_t> {
    if (!v) return std::nullopt;
    return static_cast<std::uint16_t>(*v);
  };
  for (const auto& id : hardware_ids) {
    if (!ids.vendor_id) ids.vendor_id = narrow16(id_field(id, "VEN_", 4));
    if (!ids.device_id) ids.device_id = narrow16(id_field(id, "DEV_", 4));
    if (!ids.subsystem_device_id) {
      // SUBSYS_ssssvvvv: subsystem device id first, then subsystem vendor id.
      if (auto sub = id_field(id, "SUBSYS_", 8)) {
        ids.subsystem_device_id = static_cast<std::uint16_t>(*sub >> 16);
        ids.subsystem_vendor_id = static_cast<std::uint16_t>(*sub & 0xffff);
      }
    }
    if (!ids.class_code) ids.class_code = id_field(id, "CC_", 6);
  }
  for (const auto& id : compatible_ids)
    if (!ids.class_code) ids.class_code = id_field(id, "CC_", 6);
  return ids;
}

std::optional<double> pcie_speed_from_property(std::uint32_t value) {
  switch (value) {
    case 1:
      return 2.5;
    case 2:
      return 5.0;
    case 3:
      return 8.0;
    case 4:
      return 16.0;
    case 5:
      return 32.0;
    case 6:
      return 64.0;
    default:
      return std::nullopt;
  }
}

std::optional<unsigned> pcie_width_from_property(std::uint32_t value) {
  switch (value) {
    case 1:
    case 2:
    case 4:
    case 8:
    case 12:
    case 16:
    case 32:
      return value;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> parse_hex_bytes(std::string_view hex) {
  std::string out;
  int high = -1;
  for (char c : hex) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      return std::nullopt;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>((high << 4) | v));
      high = -1;
    }
  }
  if (high >= 0) return std::nullopt;
  return out;
}

std::optional<UsbSpeed> negotiated_speed(std::optional<unsigned> usb_device_speed,
                                         std::optional<bool> operating_at_super_speed_plus) {
  if (!usb_device_speed) return std::nullopt;
  switch (*usb_device_speed) {
    case 0:
      return UsbSpeed::Low;
    case 1:
      return UsbSpeed::Full;
    case 2:
      return UsbSpeed::High;
    case 3:
      return operating_at_super_speed_plus.value_or(false) ? UsbSpeed::SuperPlus : UsbSpeed::Super;
    default:
      return std::nullopt;
  }
}

std::optional<UsbSpeed> flag_capable_speed(std::optional<bool> super_speed_capable,
                                           std::optional<bool> super_speed_plus_capable) {
  if (super_speed_plus_capable.value_or(false)) return UsbSpeed::SuperPlus;
  if (super_speed_capable.value_or(false)) return UsbSpeed::Super;
  return std::nullopt;
}

StorageProtocol storage_protocol(std::string_view service, std::optional<std::uint8_t> interface_class) {
  if (iequals(service, "UASPStor")) return StorageProtocol::Uas;
  if (iequals(service, "USBSTOR")) return StorageProtocol::Bot;
  if (interface_class == 0x08) return StorageProtocol::Other;
  return StorageProtocol::None;
}

std::string transport_from_bus_type(std::optional<unsigned> bus_type) {
  if (!bus_type) return "unknown";
  switch (*bus_type) {
    case 1:
      return "scsi";  // BusTypeScsi
    case 2:
      return "ata";  // BusTypeAtapi
    case 3:
      return "ata";  // BusTypeAta
    case 4:
      return "ieee1394";
    case 5:
      return "scsi";  // BusTypeSsa
    case 6:
      return "fibre";
    case kBusTypeUsb:
      return "usb";
    case 8:
      return "raid";
    case 9:
      return "iscsi";
    case 10:
      return "sas";
    case 11:
      return "sata";
    case 12:
      return "mmc";  // BusTypeSd
    case 13:
      return "mmc";  // BusTypeMmc
    case 14:
      return "virtual";  // BusTypeVirtual
    case 15:
      return "virtual";  // BusTypeFileBackedVirtual (VHD)
    case 16:
      return "virtual";  // BusTypeSpaces
    case 17:
      return "nvme";
    case 18:
      return "scm";
    case 19:
      return "ufs";
    default:
      return "unknown";
  }
}

HcdKind hcd_kind_from_service(std::string_view service) {
  const std::string u = upper(service);
  if (u.find("XHCI") != std::string::npos) return HcdKind::Xhci;
  if (u.find("EHCI") != std::string::npos) return HcdKind::Ehci;
  if (u.find("OHCI") != std::string::npos) return HcdKind::Ohci;
  if (u.find("UHCI") != std::string::npos) return HcdKind::Uhci;
  return HcdKind::Unknown;
}

std::optional<std::array<unsigned, 3>> parse_windows_version(std::string_view v) {
  std::array<unsigned, 3> out{};
  std::size_t i = 0, start = 0;
  v = trim(v);
  while (i < 3) {
    const auto end = v.find('.', start);
    const auto n =
        parse_uint(v.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (!n || *n > 0xffffffffu) return std::nullopt;
    out[i++] = static_cast<unsigned>(*n);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (i < 2) return std::nullopt;
  return out;
}

std::optional<bool> has_inbox_uas_driver(std::optional<std::string_view> os_version) {
  if (!os_version) return std::nullopt;
  const auto v = parse_windows_version(*os_version);
  if (!v) return std::nullopt;
  return (*v)[0] > 6 || ((*v)[0] == 6 && (*v)[1] >= 2);
}

}  // namespace usbsat::topology::windows
