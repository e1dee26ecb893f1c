// usb4_tunnel_displays: drives in the USB3 tunnel of a USB4/Thunderbolt link that also carries DisplayPort
// tunnels, which the connection manager allocates first (drivers/thunderbolt/tb.c). DisplayPort streams go
// host -> dock only: writes to the drives compete with them, reads do not, and the finding says which
// direction is affected. When the DisplayPort tunnels are not visible, it says what was assumed and what a
// display would take.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

/// DisplayPort tunnels seen on the link: a warning with what they leave the drives.
void known_displays(const Usb4LinkSummary& l, Finding& f, const std::string& riders, bool one) {
  f.severity = FindingSeverity::Warning;
  std::vector<std::string> shown;
  for (const auto& d : l.display_connectors) shown.push_back(describe_display(d));
  const auto n = l.display_connectors.size();
  auto text = [](const std::optional<Bandwidth>& b) { return b ? gbit_text(*b) : std::string("?"); };
  f.message = fmt::format(
      "{} share{} the {} with {} display{} ({}): {} of its {} usable. Writes (host to dock) are affected: "
      "the "
      "USB3 tunnel carries at most {} of them, for all the drives together; reads (dock to host) are not, up "
      "to {}.",
      riders, one ? "s" : "", l.label, n, n == 1 ? "" : "s", join(shown, ", "), describe_dp_tunnels(l),
      text(l.usable), text(l.usb3_tunnel_write), text(l.usb3_tunnel));
  f.fix =
      "For the drives' full speed, connect them (or the displays) to another port of the computer itself, "
      "one that is not on this dock's USB4 link.";
}

/// DisplayPort tunnels not visible: an info naming the assumption and what displays would take.
void unknown_displays(const Usb4LinkSummary& l, Finding& f, const std::string& riders, bool one) {
  f.severity = FindingSeverity::Info;
  const Bandwidth uhd = dp_tunnel_assumed();  // one 4K display at 60 Hz: HBR2 x 4
  std::string left;
  if (l.usable) {
    const Bandwidth two = uhd + uhd;
    left = fmt::format(" of the {} usable; two would leave the link {} for writes", gbit_text(*l.usable),
                       two < *l.usable ? gbit_text(*l.usable - two) : std::string("nothing"));
  }
  f.message = fmt::format(
      "{} ride{} the USB3 tunnel of the {}. DisplayPort tunnels on this link are not visible (no DRM link "
      "information), so none were assumed and the tunnel's {} is an upper bound for writes. Displays on the "
      "dock take host-to-dock bandwidth first, so writes to the drives would be affected, reads not: one 4K "
      "display at 60 Hz reserves {} (HBR2 x 4){}.",
      riders, one ? "s" : "", l.label, l.usb3_tunnel_write ? gbit_text(*l.usb3_tunnel_write) : "capacity",
      gbit_text(uhd), left);
  f.fix =
      "If displays are connected to this dock and the drives are slower than expected, connect the drives "
      "(or the displays) to another port of the computer itself; `usbsat saturate` measures what the drives "
      "get.";
}

}  // namespace

void check_usb4_tunnel_displays(const Context& cx) {
  for (const auto& l : usb4_links(cx.t)) {
    const auto drives = tunnel_devices(cx, l);
    if (drives.empty()) continue;
    if (l.displays_known() && l.displays == Bandwidth::zero()) continue;
    std::vector<std::string> devices = devices_names(cx.t, drives);
    devices.push_back(l.name);
    auto f = cx.finding(FindingSeverity::Info, devices);
    ev(f, l.name + "/usb3_tunnel_read", l.usb3_tunnel ? gbit_text(*l.usb3_tunnel) : "unknown");
    ev(f, l.name + "/usb3_tunnel_write", l.usb3_tunnel_write ? gbit_text(*l.usb3_tunnel_write) : "unknown");
    ev(f, l.name + "/direction_affected", "write (host to dock)");
    ev(f, l.name + "/displayport_tunnels", l.displays_known() ? gbit_text(l.displays) : "not visible");
    const std::string riders = devices_labels(cx.t, drives);
    if (l.displays_known())
      known_displays(l, f, riders, drives.size() == 1);
    else
      unknown_displays(l, f, riders, drives.size() == 1);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
