// legacy_companion: a storage device on an OHCI/UHCI companion controller at 12 Mb/s.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

void check_legacy_companion(const Context& cx) {
  for (const auto& d : cx.devices) {
    const auto ctrl = controller_of(cx.t, d.dev);
    if (!ctrl) continue;
    const auto& ci = cx.t[*ctrl].as<ControllerInfo>();
    if (ci.kind != HcdKind::Ohci && ci.kind != HcdKind::Uhci) continue;
    const auto& u = usb(cx.t, d.dev);
    // What the device gets is the bandwidth model's figure for its link (one Bulk-Only drive); an OHCI/UHCI
    // port runs at full speed (12 Mb/s) unless sysfs says otherwise (low speed).
    const UsbSpeed speed = plausible_speed(u.speed) ? *u.speed : UsbSpeed::Full;
    const auto best = usb_drive_capacity(usb_rate(speed, 1), StorageProtocol::Bot);
    if (!best) continue;
    auto f = cx.finding(FindingSeverity::Problem, device_names(cx.t, d));
    ev(f, u.name + "/speed", topology::sysfs_speed_text(u.speed));
    if (!u.version.empty()) ev(f, u.name + "/version", u.version);
    ev(f, ci.bdf + "/driver", ci.driver.empty() ? "(none)" : ci.driver);
    std::vector<std::string> ehci_state;
    for (const auto& comp : ci.companions) {
      const auto v = cx.t.find_by_name(comp);
      const ControllerInfo* e = v ? cx.t[*v].get_if<ControllerInfo>() : nullptr;
      ev(f, comp + "/driver", e ? (e->driver.empty() ? "(none)" : e->driver) : "(not found)");
      ehci_state.push_back(e && !e->driver.empty() ? comp + " is bound to " + e->driver
                                                   : comp + " has no driver bound");
    }
    const bool usb2_device = u.bcd_usb && *u.bcd_usb >= 0x0200;
    std::string why, fix;
    if (usb2_device) {
      const auto first = u.version.find_first_not_of(' ');
      why = fmt::format(
          "the device is USB {} and could run at 480 Mb/s, but it was handed to the companion "
          "controller{}",
          first == std::string::npos ? std::string("2.0") : u.version.substr(first),
          ehci_state.empty() ? " (the EHCI controller is not driving this port)"
                             : " (" + topology::join(ehci_state, ", ") + ")");
      fix =
          "Make sure the EHCI driver is loaded and bound (sudo modprobe ehci-pci; it must load before "
          "ohci/uhci), "
          "then replug; if it still falls back to 12 Mb/s, try another cable or connector. Better: use an "
          "xHCI "
          "(USB 3) port.";
    } else {
      why = "the device itself is USB 1.1 (full speed) only";
      fix =
          "Nothing on this machine makes a USB 1.1 device faster; use it only for small files or replace it.";
    }
    f.message = fmt::format("{} runs at {} on {}, about {} at best: {}.", device_label(cx.t, d),
                            topology::usb_rate_text(speed), topology::controller_label(ci),
                            topology::bandwidth_text(*best), why);
    f.fix = std::move(fix);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
