// shared_bandwidth: drives whose predicted shares (the bandwidth model, all drives at once) fall well below
// what each would get alone, grouped by the link that stops them.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/describe.hpp"
#include "topology/escape.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

namespace {

/// The names a finding lists for one predicted drive: its medium, then its USB device (one drive per medium:
/// two cards of one reader are two entries with the reader's kernel name after each).
std::vector<std::string> share_names(const Context& cx, const DriveShare& s) {
  const auto* u = cx.t[s.drive].get_if<UsbDeviceInfo>();
  const std::string dev = u ? u->name : cx.t[s.drive].syspath();
  if (s.block)
    if (const auto* b = cx.t[*s.block].get_if<BlockInfo>()) return {b->name, dev};
  for (const auto& d : cx.devices)
    if (d.dev == s.drive) return device_names(cx.t, d);
  return {dev};
}

/// A share the doctor may build a sentence on: finite, non-negative figures and a known capacity.
bool plausible_share(const DriveShare& s) {
  auto ok = [](double v) { return std::isfinite(v) && v >= 0; };
  return ok(s.demand_mbps) && ok(s.predicted_mbps) && ok(s.bottleneck_capacity_mbps) &&
         s.bottleneck_capacity_mbps > 0;
}

}  // namespace

void check_shared_bandwidth(const Context& cx) {
  if (!cx.config.predictor) return;
  const auto shares = cx.config.predictor->predict(cx.t);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const DriveShare*>> groups;
  for (const auto& s : shares) {
    if (!groups.contains(s.bottleneck)) order.push_back(s.bottleneck);
    groups[s.bottleneck].push_back(&s);
  }
  const auto free_usb3 = free_usb3_connectors(cx.t);
  // Each node -> the free connectors (indices into free_usb3) below it, found once for every group.
  std::map<Vertex, std::vector<std::size_t>> free_below;
  for (std::size_t i = 0; i < free_usb3.size(); ++i)
    for (std::optional<Vertex> v = *free_usb3[i]->usb3_port; v; v = parent(cx.t, *v))
      free_below[*v].push_back(i);
  for (const auto& key : order) {
    const auto& g = groups[key];
    if (!std::all_of(g.begin(), g.end(), [](const DriveShare* s) { return plausible_share(*s); })) continue;
    double demand = 0;
    std::size_t slowed = 0;
    for (const auto* s : g) {
      demand += s->demand_mbps;
      if (s->predicted_mbps < cx.config.shared_threshold * s->demand_mbps) ++slowed;
    }
    if (g.size() < 2 || slowed == 0) continue;
    // The model's labels carry product strings from device firmware: made text-safe for sentences.
    const std::string label = topology::text_safe(g.front()->bottleneck_label);
    std::vector<std::string> devices, shares_txt;
    auto f = cx.finding(FindingSeverity::Warning, {});
    ev(f, "bottleneck", label);
    ev(f, "bottleneck capacity (MB/s)", fmt::format("{:.0f}", g.front()->bottleneck_capacity_mbps));
    for (const auto* s : g) {
      const auto names = share_names(cx, *s);
      for (const auto& n : names) add_unique(devices, n);
      ev(f, names.front() + " alone / shared (MB/s)",
         fmt::format("{:.0f} / {:.0f}", s->demand_mbps, s->predicted_mbps));
      shares_txt.push_back(
          fmt::format("{} {:.0f} MB/s (alone {:.0f})", names.front(), s->predicted_mbps, s->demand_mbps));
    }
    f.devices = std::move(devices);
    f.message = fmt::format(
        "{} drives share the {}: about {:.0f} MB/s usable for {:.0f} MB/s of combined demand. With all of "
        "them "
        "busy the bandwidth model predicts {}.",
        g.size(), label, g.front()->bottleneck_capacity_mbps, demand, topology::join(shares_txt, ", "));
    // Free connectors whose path does not cross the bottleneck.
    std::vector<const Connector*> avoid;
    if (const auto bv = cx.t.find_by_name(g.front()->bottleneck_node)) {
      std::vector<bool> behind(free_usb3.size());
      if (auto it = free_below.find(*bv); it != free_below.end())
        for (std::size_t i : it->second) behind[i] = true;
      for (std::size_t i = 0; i < free_usb3.size(); ++i)
        if (!behind[i]) avoid.push_back(free_usb3[i]);
    }
    if (!avoid.empty()) ev(f, "free connectors not behind the bottleneck", evidence_list(cx.t, avoid));
    f.fix = avoid.empty()
                ? fmt::format(
                      "No free connector avoids the {}; to run these drives at full speed together, use a "
                      "controller on another PCIe slot/lane or fewer drives at once. `usbsat plan` computes "
                      "the best placement.",
                      label)
                : fmt::format(
                      "Move one or more of them to a connector that does not go through the {}: {}. "
                      "`usbsat plan` computes the best placement.",
                      label, short_list(cx.t, avoid));
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
