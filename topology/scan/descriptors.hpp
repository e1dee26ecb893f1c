#pragma once
/// Pure parsers for the binary USB descriptor files sysfs exposes per device: `descriptors` (the device
/// descriptor followed by every configuration's raw descriptors) and `bos_descriptors` (kernel >= 6.9: the
/// Binary Object Store with the device capabilities). Both are robust against truncation: whatever parsed
/// completely is returned, and `truncated` says the data ended early.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "topology/model/node.hpp"
#include "topology/model/speed.hpp"

namespace usbsat::topology {

/// The 18-byte standard device descriptor.
struct DeviceDescriptor {
  std::uint16_t bcd_usb = 0;
  std::uint8_t device_class = 0, device_subclass = 0, device_protocol = 0, max_packet_size0 = 0;
  std::uint16_t vendor_id = 0, product_id = 0, bcd_device = 0;
  std::uint8_t num_configurations = 0;
  bool operator==(const DeviceDescriptor&) const = default;
};

/// One interface descriptor (one alternate setting of one interface number) inside a configuration.
struct InterfaceAlt {
  std::uint8_t interface_number = 0;
  AltSetting alt;
  std::uint8_t string_index =
      0;  ///< iInterface: 0 = no string, so the kernel creates no `interface` attribute
  bool operator==(const InterfaceAlt&) const = default;
};

struct ConfigDescriptor {
  std::uint8_t value = 0;  ///< bConfigurationValue
  std::uint8_t num_interfaces = 0;
  std::uint8_t max_power_raw = 0;  ///< bMaxPower in descriptor units (2 mA for USB2, 8 mA for SuperSpeed)
  std::vector<InterfaceAlt> interfaces;
  bool operator==(const ConfigDescriptor&) const = default;
};

struct UsbDescriptors {
  std::optional<DeviceDescriptor> device;
  std::vector<ConfigDescriptor> configs;
  bool truncated = false;  ///< the data ended inside a descriptor, or a descriptor had an impossible length

  /// All alt settings of interface `number` in configuration `config_value` (any config if nullopt).
  std::vector<AltSetting> alt_settings(std::uint8_t number, std::optional<std::uint8_t> config_value) const;
  /// False when interface `number` is described and none of its alt settings has an iInterface string: the
  /// kernel then has no `interface` attribute for it (whichever alt setting is active). True otherwise.
  bool may_have_interface_string(std::uint8_t number, std::optional<std::uint8_t> config_value) const;
};

/// Parse the contents of a device's `descriptors` file.
UsbDescriptors parse_usb_descriptors(std::string_view bytes);

/// One bmSublinkSpeedAttr entry of a SuperSpeedPlus device capability.
struct SublinkSpeed {
  std::uint8_t ssid = 0;
  std::uint8_t lse = 0;       ///< lane speed exponent: 0 b/s, 1 Kb/s, 2 Mb/s, 3 Gb/s
  std::uint8_t type = 0;      ///< bit 0: asymmetric, bit 1: TX (else RX)
  std::uint8_t protocol = 0;  ///< 0 SuperSpeed, 1 SuperSpeedPlus
  std::uint16_t mantissa = 0;
  /// Lane speed in Mb/s (mantissa scaled by the exponent).
  double mbps() const;
  bool operator==(const SublinkSpeed&) const = default;
};

struct BosInfo {
  bool usb2_extension = false, usb2_lpm = false;
  std::optional<std::uint16_t>
      ss_speeds_supported;  ///< SuperSpeed capability wSpeedsSupported (bit 3 = 5 Gb/s)
  bool superspeed_plus = false;
  std::uint8_t ssp_min_rx_lanes = 0,
               ssp_min_tx_lanes = 0;  ///< wFunctionalitySupport lane counts (USB 3.2), 0 = n/a
  std::vector<SublinkSpeed> sublink_speeds;
  bool truncated = false;

  /// The highest speed the capabilities promise: SuperSpeedPlus sublinks -> 10000 (20000 when a 10 Gb/s
  /// lane speed is combined with a 2-lane minimum, or a 20 Gb/s sublink is listed); a SuperSpeed
  /// capability with the 5 Gb/s bit -> 5000; a USB 2.0 extension alone -> 480. nullopt when none is present.
  std::optional<UsbSpeed> capable_speed() const;
};

/// Parse the contents of a device's `bos_descriptors` file.
BosInfo parse_bos_descriptors(std::string_view bytes);

/// Fill what a device's descriptors say into `d`, as the kernel prints the matching attributes: bcdUSB and
/// its `version` spelling ("%2x.%02x": " 3.20"), bNumConfigurations, bDeviceClass / idVendor / idProduct
/// where still unknown, and bMaxPower of the only configuration (2 mA units, 8 mA at SuperSpeed; needs
/// d.speed).
void apply_device_descriptors(UsbDeviceInfo& d, const UsbDescriptors& desc);
/// The capable speed of `d`: what the device capabilities promise (BOS on Linux, the hub driver's
/// SuperSpeed(Plus)-capable flags on Windows), else bcdUSB; never below the negotiated speed (bcdUSB 2.10
/// devices running at 5000 exist).
void settle_capable_speed(UsbDeviceInfo& d, std::optional<UsbSpeed> from_capabilities);

}  // namespace usbsat::topology
