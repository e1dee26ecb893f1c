// tb_dock_pcie_narrow: a Thunderbolt 3 dock whose own xHCI sits on a PCIe link narrower than both the
// dock's PCIe tunnel and what the xHCI's SuperSpeed ports could move together: every drive on the dock
// shares that one link (a Fresco FL1100 on PCIe 2.0 x1: 400 MB/s for four 5 Gb/s ports).
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

/// What the controller's SuperSpeed root-hub ports could move together (each at its root hub's shared
/// rate); nullopt without a SuperSpeed root hub.
std::optional<Bandwidth> superspeed_ports(const Topology& t, Vertex c, unsigned& ports) {
  std::optional<Bandwidth> sum;
  ports = 0;
  for (Vertex rh : children(t, c)) {
    if (t[rh].kind != NodeKind::RootHub) continue;
    for (Vertex p : children(t, rh)) {
      const auto s = t[p].kind == NodeKind::Port ? t[p].as<PortInfo>().hub_speed : std::nullopt;
      if (!s || !is_superspeed(*s)) continue;
      if (const auto cap = usb_shared_capacity(usb_rate(*s, 1))) {
        sum = sum.value_or(Bandwidth::zero()) + *cap;
        ++ports;
      }
    }
  }
  return sum;
}

void evidence(Finding& f, const Topology& t, const PcieTunnelSummary& p, const ControllerInfo& ci,
              const PcieLink& l) {
  const auto& r = t[p.router].as<RouterInfo>();
  ev(f, r.name + "/generation", r.generation ? std::to_string(*r.generation) : "unknown");
  ev(f, ci.bdf + "/current_link_speed", sysfs_pcie_speed(*l.speed_gts));
  ev(f, ci.bdf + "/current_link_width", std::to_string(*l.width));
  if (l.max_speed_gts) ev(f, ci.bdf + "/max_link_speed", sysfs_pcie_speed(*l.max_speed_gts));
  if (l.max_width) ev(f, ci.bdf + "/max_link_width", std::to_string(*l.max_width));
  ev(f, "PCIe tunnel",
     fmt::format("{} -> {}{}", t[p.downstream].as<PciHopInfo>().bdf, t[p.entry].as<PciHopInfo>().bdf,
                 p.marked_removable ? " (removable)" : " (joined by position)"));
  if (p.link_share) ev(f, "Thunderbolt link PCIe share", bandwidth_text(*p.link_share));
}

}  // namespace

void check_tb_dock_pcie_narrow(const Context& cx) {
  for (const auto& p : pcie_tunnels(cx.t)) {
    for (Vertex c : p.controllers) {
      const auto& ci = cx.t[c].as<ControllerInfo>();
      const PcieLink l = controller_pcie_link(cx.t, c);
      if (!plausible_pcie_speed(l.speed_gts) || !plausible_pcie_width(l.width)) continue;
      const auto cap = pcie_capacity(l);
      unsigned ports = 0;
      const auto usb = superspeed_ports(cx.t, c, ports);
      if (!cap || !usb || !p.link_share || !(*cap < *p.link_share) || !(*cap < *usb)) continue;
      std::vector<const StorageDevice*> riders;
      for (const auto& d : cx.devices)
        if (controller_of(cx.t, d.dev) == c) riders.push_back(&d);
      std::vector<std::string> devices{p.name, ci.bdf};
      for (const auto& n : devices_names(cx.t, riders)) devices.push_back(n);
      auto f = cx.finding(riders.empty() ? FindingSeverity::Info : FindingSeverity::Warning, devices);
      evidence(f, cx.t, p, ci, l);
      const bool capable_more =
          (l.max_speed_gts && *l.max_speed_gts > *l.speed_gts) || (l.max_width && *l.max_width > *l.width);
      const std::string capable = capable_more
                                      ? "capable " + pcie_rate_text(l.max_speed_gts.value_or(*l.speed_gts),
                                                                    l.max_width.value_or(*l.width))
                                      : std::string("all it can do");
      f.message = fmt::format(
          "The dock on the {} has its own {} on a {} link ({}): everything on the dock's USB ports shares "
          "about {}, although the link's PCIe tunnel carries up to {} and its {} SuperSpeed ports could move "
          "{} together.{}",
          p.link_label, controller_label(ci), pcie_link_text(PcieLink{l.speed_gts, l.width, {}, {}}), capable,
          bandwidth_text(*cap), bandwidth_text(*p.link_share), ports, bandwidth_text(*usb),
          riders.empty() ? "" : fmt::format(" On it: {}.", devices_labels(cx.t, riders)));
      f.fix = fmt::format(
          "Drives that need more than {} together belong on the computer's own USB ports, or on a dock whose "
          "xHCI has a wider PCIe link (or a USB4 dock, whose USB3 tunnel needs no PCIe link).{} Confirm "
          "with:\ngrep . /sys/bus/pci/devices/{}/{{current,max}}_link_{{speed,width}}",
          bandwidth_text(*cap),
          capable_more ? " The link trained below what it can do: replug the dock, and update its firmware."
                       : "",
          ci.bdf);
      cx.out.push_back(std::move(f));
    }
  }
}

}  // namespace usbsat::analysis::doctor
