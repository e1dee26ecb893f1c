#include "report/describe.hpp"

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/formatters.hpp"

namespace usbsat::report {

std::string describe_usb_device(const topology::UsbDeviceInfo& d) {
  std::string out;
  if (d.vendor_id && d.product_id) out = fmt::format("{:04x}:{:04x}", *d.vendor_id, *d.product_id);
  const std::string vendor = d.manufacturer ? *d.manufacturer : d.vendor_name;
  const std::string product = d.product ? *d.product : d.model_name;
  for (const auto* s : {&vendor, &product})
    if (!s->empty()) out += (out.empty() ? "" : " ") + display_string(*s);
  return out;
}

std::string describe_controller(const topology::ControllerSummary& c) {
  std::string out = c.pci + " " + std::string(hcd_label(c.kind));
  if (c.vendor_id && c.device_id) out += fmt::format(" [{:04x}:{:04x}]", *c.vendor_id, *c.device_id);
  for (const auto* s : {&c.vendor, &c.name})
    if (!s->empty()) out += " " + display_string(*s);
  return out;
}

std::string short_pci(const std::string& bdf) { return bdf.rfind("0000:", 0) == 0 ? bdf.substr(5) : bdf; }

std::string disk_model(const std::optional<std::string>& vendor, const std::optional<std::string>& model) {
  std::string out;
  for (const auto* s : {&vendor, &model})
    if (*s && !(*s)->empty()) out += (out.empty() ? "" : " ") + display_string(**s);
  return out;
}

std::string describe_speed(std::optional<topology::UsbSpeed> speed, std::optional<topology::UsbSpeed> capable) {
  std::string out = speed ? std::string(topology::short_label(*speed)) : "speed ?";
  if (speed && capable && *capable > *speed && *capable >= topology::UsbSpeed::High) out += fmt::format(" (capable {})", topology::short_label(*capable));
  return out;
}

}  // namespace usbsat::report
