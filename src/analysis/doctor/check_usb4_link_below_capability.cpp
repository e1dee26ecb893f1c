// usb4_link_below_capability: a USB4/Thunderbolt link trained below what both routers can do: one lane
// instead of two, or 10 instead of 20 Gb/s per lane. Both ends being able to do more, the cable (or an
// adapter in between) is what limits it.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

void link_evidence(Finding& f, const Topology& t, const Usb4LinkSummary& l) {
  const auto& r = t[l.router].as<RouterInfo>();
  const auto& up = t[l.upstream].as<RouterInfo>();
  const auto opt = [](std::optional<unsigned> v, std::string_view unit) {
    return v ? fmt::format("{}{}", *v, unit) : std::string("unknown");
  };
  ev(f, r.name + "/rx_speed", opt(r.rx_speed_gbps, ".0 Gb/s"));
  ev(f, r.name + "/tx_speed", opt(r.tx_speed_gbps, ".0 Gb/s"));
  ev(f, r.name + "/rx_lanes", opt(r.rx_lanes, ""));
  ev(f, r.name + "/tx_lanes", opt(r.tx_lanes, ""));
  ev(f, r.name + "/generation", opt(r.generation, ""));
  ev(f, up.name + "/generation", opt(up.generation, ""));
}

/// What to change: a 40 Gb/s cable for a one-lane or 10 Gb/s-per-lane link.
std::string cable_fix(const Usb4LinkSummary& l) {
  const std::string why = *l.lanes < l.capable->lanes
                              ? "A link on one lane means the cable (or an adapter or extension in between) "
                                "carries only one lane pair"
                              : fmt::format(
                                    "{} Gb/s per lane means the cable is rated for less than {} Gb/s "
                                    "per lane (a USB4 20 Gb/s or USB 3.2 cable)",
                                    *l.lane_gbps, l.capable->lane_gbps);
  return fmt::format(
      "{}. Connect the dock with a cable rated for USB4 40 Gb/s or Thunderbolt 3/4 (passive cables of at "
      "most "
      "0.8 m, or an active one), directly to the computer's USB4 port, and replug it. Confirm with:\n"
      "grep . /sys/bus/thunderbolt/devices/{}/{{rx,tx}}_{{speed,lanes}}",
      why, l.name);
}

}  // namespace

void check_usb4_link_below_capability(const Context& cx) {
  for (const auto& l : usb4_links(cx.t)) {
    if (!l.below_capability()) continue;
    const auto drives = tunnel_devices(cx, l);
    std::vector<std::string> devices{l.name};
    for (const auto& n : devices_names(cx.t, drives)) devices.push_back(n);
    auto f = cx.finding(drives.empty() ? FindingSeverity::Info : FindingSeverity::Warning, devices);
    link_evidence(f, cx.t, l);
    const unsigned cap_gbps = l.capable->lane_gbps, cap_lanes = l.capable->lanes;
    const std::string riders =
        drives.empty() ? "" : fmt::format(" Its USB3 tunnel carries {}.", devices_labels(cx.t, drives));
    f.message = fmt::format(
        "The {} trained at {} although both ends can do {}: {} usable instead of {} for everything it "
        "carries.{} DisplayPort tunnels take their share first, so displays on the dock leave the USB3 "
        "tunnel less.",
        l.label, usb4_lanes_text(*l.lane_gbps, *l.lanes), usb4_lanes_text(cap_gbps, cap_lanes),
        l.usable ? gbit_text(*l.usable) : std::string("less"),
        gbit_text(usb4_link_usable(cap_gbps, cap_lanes)), riders);
    f.fix = cable_fix(l);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
