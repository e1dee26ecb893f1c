#include "topology/scan/descriptors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology {
namespace {

constexpr std::uint8_t kDescDevice = 0x01, kDescConfig = 0x02, kDescInterface = 0x04, kDescBos = 0x0f,
                       kDescDeviceCapability = 0x10;
constexpr std::uint8_t kCapUsb2Ext = 0x02, kCapSuperSpeed = 0x03, kCapSuperSpeedPlus = 0x0a;

std::uint8_t u8(std::string_view b, std::size_t i) {
  return static_cast<std::uint8_t>(b[i]);
}
std::uint16_t le16(std::string_view b, std::size_t i) {
  return static_cast<std::uint16_t>(u8(b, i) | (u8(b, i + 1) << 8));
}
std::uint32_t le32(std::string_view b, std::size_t i) {
  return static_cast<std::uint32_t>(le16(b, i)) | (static_cast<std::uint32_t>(le16(b, i + 2)) << 16);
}

}  // namespace

std::vector<AltSetting> UsbDescriptors::alt_settings(std::uint8_t number,
                                                     std::optional<std::uint8_t> config_value) const {
  std::vector<AltSetting> out;
  for (const auto& c : configs) {
    if (config_value && c.value != *config_value) continue;
    for (const auto& i : c.interfaces)
      if (i.interface_number == number && std::find(out.begin(), out.end(), i.alt) == out.end())
        out.push_back(i.alt);
    if (config_value) break;
  }
  return out;
}

bool UsbDescriptors::may_have_interface_string(std::uint8_t number,
                                               std::optional<std::uint8_t> config_value) const {
  bool described = false;
  for (const auto& c : configs) {
    if (config_value && c.value != *config_value) continue;
    for (const auto& i : c.interfaces) {
      if (i.interface_number != number) continue;
      described = true;
      if (i.string_index != 0) return true;
    }
    if (config_value) break;
  }
  return !described;
}

UsbDescriptors parse_usb_descriptors(std::string_view b) {
  UsbDescriptors d;
  std::size_t pos = 0;
  ConfigDescriptor* current = nullptr;
  while (pos < b.size()) {
    if (pos + 2 > b.size()) {
      d.truncated = true;
      break;
    }
    const std::uint8_t len = u8(b, pos), type = u8(b, pos + 1);
    if (len < 2) {  // a zero length would loop forever; a length of 1 cannot hold the type
      d.truncated = true;
      break;
    }
    if (pos + len > b.size()) {
      d.truncated = true;
      break;
    }
    const auto desc = b.substr(pos, len);
    if (type == kDescDevice && len >= 18 && !d.device) {
      d.device = DeviceDescriptor{le16(desc, 2), u8(desc, 4),    u8(desc, 5),    u8(desc, 6), u8(desc, 7),
                                  le16(desc, 8), le16(desc, 10), le16(desc, 12), u8(desc, 17)};
    } else if (type == kDescConfig && len >= 9) {
      d.configs.push_back(ConfigDescriptor{u8(desc, 5), u8(desc, 4), u8(desc, 8), {}});
      current = &d.configs.back();
    } else if (type == kDescInterface && len >= 9 && current) {
      current->interfaces.push_back(InterfaceAlt{
          u8(desc, 2), AltSetting{u8(desc, 3), u8(desc, 5), u8(desc, 6), u8(desc, 7), u8(desc, 4)},
          u8(desc, 8)});
    }
    pos += len;
  }
  return d;
}

double SublinkSpeed::mbps() const {
  static constexpr double kScale[] = {1e-6, 1e-3, 1.0, 1e3};
  return mantissa * kScale[lse & 3];
}

std::optional<UsbSpeed> BosInfo::capable_speed() const {
  if (superspeed_plus) {
    // Lane count is not a BOS field. Follow the convention the kernel's own gadget stack uses
    // (drivers/usb/gadget/composite.c): one SSID of 10 Gb/s = Gen 2x1; one SSID of 5 Gb/s = Gen 1x2;
    // two SSIDs (5 and 10 Gb/s) = Gen 2x2. A USB 3.2 minimum lane count of 2 also means two lanes.
    double lane = 0;
    std::vector<std::uint8_t> ssids;
    for (const auto& s : sublink_speeds) {
      if (s.protocol != 1) continue;
      lane = std::max(lane, s.mbps());
      if (std::find(ssids.begin(), ssids.end(), s.ssid) == ssids.end()) ssids.push_back(s.ssid);
    }
    unsigned lanes = std::max<unsigned>(1, std::min(ssp_min_rx_lanes, ssp_min_tx_lanes));
    if (ssids.size() >= 2 && lane >= 10000 - 1) lanes = 2;
    if (lane > 0 && lane < 10000 - 1) lanes = 2;  // an SSP capability with 5 Gb/s lanes only: Gen 1x2
    const double total = lane * lanes;
    if (total >= 20000 - 1) return UsbSpeed::SuperPlus2x2;
    if (total >= 10000 - 1) return UsbSpeed::SuperPlus;
  }
  if (ss_speeds_supported && (*ss_speeds_supported & 0x08)) return UsbSpeed::Super;
  if (usb2_extension || ss_speeds_supported) return UsbSpeed::High;
  return std::nullopt;
}

BosInfo parse_bos_descriptors(std::string_view b) {
  BosInfo info;
  if (b.size() < 5 || u8(b, 1) != kDescBos || u8(b, 0) < 5) {
    info.truncated = !b.empty();
    return info;
  }
  const std::size_t total = std::min<std::size_t>(le16(b, 2), b.size());
  if (le16(b, 2) > b.size()) info.truncated = true;
  std::size_t pos = u8(b, 0);
  while (pos + 3 <= total) {
    const std::uint8_t len = u8(b, pos), type = u8(b, pos + 1), cap = u8(b, pos + 2);
    if (len < 3 || pos + len > total) {
      info.truncated = true;
      break;
    }
    const auto d = b.substr(pos, len);
    if (type == kDescDeviceCapability) {
      if (cap == kCapUsb2Ext && len >= 7) {
        info.usb2_extension = true;
        info.usb2_lpm = (le32(d, 3) & 0x2) != 0;
      } else if (cap == kCapSuperSpeed && len >= 10) {
        info.ss_speeds_supported = le16(d, 4);
      } else if (cap == kCapSuperSpeedPlus && len >= 12) {
        const std::uint32_t attrs = le32(d, 4);
        const std::uint16_t func = le16(d, 8);
        const unsigned count = (attrs & 0x1f) + 1;
        info.superspeed_plus = true;
        info.ssp_min_rx_lanes = static_cast<std::uint8_t>((func >> 8) & 0xf);
        info.ssp_min_tx_lanes = static_cast<std::uint8_t>((func >> 12) & 0xf);
        for (unsigned i = 0; i < count; ++i) {
          const std::size_t off = 12 + 4 * i;
          if (off + 4 > len) {
            info.truncated = true;
            break;
          }
          const std::uint32_t a = le32(d, off);
          info.sublink_speeds.push_back(
              SublinkSpeed{static_cast<std::uint8_t>(a & 0xf), static_cast<std::uint8_t>((a >> 4) & 0x3),
                           static_cast<std::uint8_t>((a >> 6) & 0x3),
                           static_cast<std::uint8_t>((a >> 14) & 0x3), static_cast<std::uint16_t>(a >> 16)});
        }
      }
    }
    pos += len;
  }
  return info;
}

void apply_device_descriptors(UsbDeviceInfo& d, const UsbDescriptors& desc) {
  if (desc.device) {
    d.bcd_usb = desc.device->bcd_usb;
    char v[16];
    std::snprintf(v, sizeof v, "%2x.%02x", desc.device->bcd_usb >> 8, desc.device->bcd_usb & 0xff);
    d.version = v;
    d.num_configurations = desc.device->num_configurations;
    if (!d.device_class) d.device_class = desc.device->device_class;
    if (!d.vendor_id) d.vendor_id = desc.device->vendor_id;
    if (!d.product_id) d.product_id = desc.device->product_id;
  }
  if (desc.configs.size() == 1 && d.speed)
    d.max_power_ma = desc.configs.front().max_power_raw * (is_superspeed(*d.speed) ? 8u : 2u);
}

void settle_capable_speed(UsbDeviceInfo& d, std::optional<UsbSpeed> from_capabilities) {
  if (from_capabilities) {
    d.capable_speed = from_capabilities;
    d.capable_from_bos = true;
  }
  if (!d.capable_speed && d.bcd_usb) d.capable_speed = speed_from_bcd_usb(*d.bcd_usb);
  if (d.speed && d.capable_speed && *d.speed > *d.capable_speed && *d.speed != UsbSpeed::Wireless)
    d.capable_speed = d.speed;
}

}  // namespace usbsat::topology
