// usb4_bus_not_visible: a host controller that pci.ids names a Thunderbolt or USB4 host's USB controller, on
// a machine where the scan found no Thunderbolt/USB4 router: the kernel's `thunderbolt` driver is not loaded
// (or not built), so the USB4/Thunderbolt links and tunnels behind that port cannot be seen. usbsat says so
// instead of guessing: a drive on a dock there shows as if on an ordinary hub.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

/// Whether the controller's name (pci.ids through the udev hwdb) makes it part of a Thunderbolt or USB4
/// host: "Tiger Lake-LP Thunderbolt 4 USB Controller", "JHL6540 Thunderbolt 3 USB Controller",
/// "Rembrandt USB4 XHCI controller #3". A controller without a name is not claimed.
bool named_usb4_host(const ControllerInfo& c) {
  return c.model_name.find("Thunderbolt") != std::string::npos ||
         c.model_name.find("USB4") != std::string::npos;
}

}  // namespace

void check_usb4_bus_not_visible(const Context& cx) {
  if (!of_kind(cx.t, NodeKind::Router).empty()) return;
  for (Vertex c : cx.t.controllers()) {
    const auto& ci = cx.t[c].as<ControllerInfo>();
    if (!named_usb4_host(ci)) continue;
    auto f = cx.finding(FindingSeverity::Info, {ci.bdf});
    ev(f, ci.bdf + " (pci.ids)", ci.model_name);
    ev(f, "/sys/bus/thunderbolt/devices", "no domain or router");
    f.message = fmt::format(
        "{} is the USB controller of a Thunderbolt/USB4 host, but no Thunderbolt/USB4 bus is visible: the "
        "kernel's thunderbolt driver is not loaded. usbsat cannot see the USB4 or Thunderbolt links and "
        "tunnels behind its ports: a drive on a dock there is shown as if on an ordinary hub, and what it "
        "shares the link with (displays, other dock devices) and the speed the link trained at are not known "
        "(not guessed).",
        controller_label(ci));
    f.fix =
        "Load the driver and run usbsat again: sudo modprobe thunderbolt (kernel 5.6 or later, CONFIG_USB4). "
        "Then `ls /sys/bus/thunderbolt/devices` lists domain0 and the routers.";
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
