// pcie_link_degraded: a PCIe link above a USB controller trained below the speed or width both ends support.
#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

struct PciFn {
  std::string bdf;
  PcieLink link;
};

/// The link with every implausible field dropped (an inf/NaN/unknown-generation speed, an impossible width):
/// a finding never rests on them.
PcieLink plausible_only(PcieLink l) {
  if (!plausible_pcie_speed(l.speed_gts)) l.speed_gts.reset();
  if (!plausible_pcie_speed(l.max_speed_gts)) l.max_speed_gts.reset();
  if (!plausible_pcie_width(l.width)) l.width.reset();
  if (!plausible_pcie_width(l.max_width)) l.max_width.reset();
  return l;
}

template <class T>
std::optional<T> min_opt(std::optional<T> a, std::optional<T> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

/// Payload MB/s of a PCIe link at this speed and width, from the bandwidth model (the figure plan and
/// saturate use for the same link).
double pcie_mbytes(double gts, unsigned width) {
  PcieLink l;
  l.speed_gts = gts;
  l.width = width;
  const auto c = pcie_capacity(l);
  return c ? c->mbs() : 0.0;
}

/// The drives below each controller, found once (not once per controller: 2,175 x 3,480 walks up the tree on
/// the 10,000-device machine of tests/bench/scale_bench.py).
std::map<Vertex, std::vector<const StorageDevice*>> drives_by_controller(const Context& cx) {
  std::map<Vertex, std::vector<const StorageDevice*>> below;
  for (const auto& d : cx.devices)
    if (auto c = controller_of(cx.t, d.dev)) below[*c].push_back(&d);
  return below;
}

}  // namespace

void check_pcie_link_degraded(const Context& cx) {
  std::set<std::pair<std::string, std::string>> reported;
  const auto below = drives_by_controller(cx);
  for (Vertex c : cx.t.controllers()) {
    const auto& ci = cx.t[c].as<ControllerInfo>();
    // The path, controller first. Along it, functions pair up on one physical link: the controller's
    // upstream link is its parent port's downstream link, and so on up (a switch's upstream port and the
    // root port above it). Both ends of a link report the same current speed and width. The raw values pair
    // the ends; only plausible ones are reasoned about.
    std::vector<PciFn> path;
    if (!ci.link.empty()) path.push_back({ci.bdf, ci.link});
    for (Vertex h : pcie_uplink(cx.t, c)) {
      const auto& hi = cx.t[h].as<PciHopInfo>();
      path.push_back({hi.bdf, hi.link});
    }
    const auto drives = below.find(c);
    const bool storage_below = drives != below.end();
    std::vector<std::string> drive_devs;
    if (storage_below)
      for (const StorageDevice* d : drives->second)
        for (auto& n : device_names(cx.t, *d)) add_unique(drive_devs, n);
    for (std::size_t i = 0; i < path.size();) {
      const PciFn& lo_raw = path[i];
      const PciFn* hi_raw = nullptr;
      if (i + 1 < path.size() && path[i + 1].link.speed_gts == lo_raw.link.speed_gts &&
          path[i + 1].link.width == lo_raw.link.width)
        hi_raw = &path[i + 1];
      i += hi_raw ? 2 : 1;
      const PcieLink lo = plausible_only(lo_raw.link);
      const std::optional<PcieLink> hi = hi_raw ? std::optional(plausible_only(hi_raw->link)) : std::nullopt;
      if (!lo.speed_gts || !lo.width) continue;
      const auto max_speed = min_opt(lo.max_speed_gts, hi ? hi->max_speed_gts : std::nullopt);
      const auto max_width = min_opt(lo.max_width, hi ? hi->max_width : std::nullopt);
      const bool slow = max_speed && *lo.speed_gts < *max_speed;
      const bool narrow = max_width && *lo.width < *max_width;
      if (!slow && !narrow) continue;
      if (!reported.emplace(lo_raw.bdf, hi_raw ? hi_raw->bdf : "").second) continue;
      std::vector<std::string> devices{ci.bdf};
      if (lo_raw.bdf != ci.bdf) devices.push_back(lo_raw.bdf);
      if (hi_raw) devices.push_back(hi_raw->bdf);
      for (const auto& n : drive_devs) devices.push_back(n);
      auto f = cx.finding(storage_below ? FindingSeverity::Warning : FindingSeverity::Info, devices);
      for (const PciFn* fn : {&lo_raw, hi_raw}) {
        if (!fn) continue;
        const PcieLink l = plausible_only(fn->link);
        if (l.speed_gts) ev(f, fn->bdf + "/current_link_speed", topology::sysfs_pcie_speed(*l.speed_gts));
        if (l.max_speed_gts) ev(f, fn->bdf + "/max_link_speed", topology::sysfs_pcie_speed(*l.max_speed_gts));
        if (l.width) ev(f, fn->bdf + "/current_link_width", std::to_string(*l.width));
        if (l.max_width) ev(f, fn->bdf + "/max_link_width", std::to_string(*l.max_width));
      }
      const double now = pcie_mbytes(*lo.speed_gts, *lo.width);
      const double could = pcie_mbytes(max_speed.value_or(*lo.speed_gts), max_width.value_or(*lo.width));
      const std::string ctrl = topology::controller_label(ci);
      std::string what;
      if (lo_raw.bdf == ci.bdf)
        what = hi_raw ? fmt::format("The PCIe link of {} to {}", ctrl, hi_raw->bdf)
                      : fmt::format("The PCIe link of {}", ctrl);
      else
        what = fmt::format("The PCIe link between {} and {}, above {},",
                           hi_raw ? hi_raw->bdf : std::string("its parent"), lo_raw.bdf, ctrl);
      f.message = fmt::format(
          "{} runs at {} although both ends support {}: about {} instead of {} for every USB device on this "
          "controller{}. Some links drop their speed while idle; if this persists while a drive is busy, the "
          "link trained below its capability.",
          what, topology::pcie_rate_text(lo.speed_gts, lo.width),
          topology::pcie_rate_text(max_speed.value_or(*lo.speed_gts), max_width.value_or(*lo.width)),
          topology::mbs_text(now), topology::mbs_text(could),
          storage_below ? " (USB storage is attached)" : "");
      f.fix = fmt::format(
          "Reseat the card, avoid risers/extensions, use a slot wired for x{} and check the BIOS PCIe speed "
          "setting "
          "(Auto rather than a forced generation). Confirm with:\n"
          "sudo lspci -vv -s {} | grep -E 'LnkCap|LnkSta'",
          max_width.value_or(*lo.width), lo_raw.bdf);
      cx.out.push_back(std::move(f));
    }
  }
}

}  // namespace usbsat::analysis::doctor
