// autosuspend: USB runtime power management enabled for a storage device.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/base/text.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

void check_autosuspend(const Context& cx) {
  for (const auto& d : cx.devices) {
    const auto& u = usb(cx.t, d.dev);
    if (!u.power_control || *u.power_control != "auto") continue;
    auto f = cx.finding(FindingSeverity::Info, device_names(cx.t, d));
    ev(f, u.name + "/power/control", *u.power_control);
    f.message = fmt::format(
        "{} may be runtime-suspended by USB autosuspend when idle. Waking it adds latency (a spinning disk "
        "may spin "
        "down), and some bridges reset or drop off the bus on resume, which interrupts long backups.",
        device_label(cx.t, d));
    std::string rule;
    if (u.vendor_id && u.product_id)
      rule = fmt::format(
          "\nTo keep it: /etc/udev/rules.d/90-usb-storage-power.rules with\n"
          "ACTION==\"add\", SUBSYSTEM==\"usb\", ATTR{{idVendor}}==\"{}\", ATTR{{idProduct}}==\"{}\", "
          "TEST==\"power/control\", ATTR{{power/control}}=\"on\"",
          format_hex4(*u.vendor_id), format_hex4(*u.product_id));
    f.fix = fmt::format("echo on | sudo tee /sys/bus/usb/devices/{}/power/control{}", u.name, rule);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
