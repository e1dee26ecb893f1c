// shared_bandwidth: drives whose predicted shares (the bandwidth model, all drives at once, each at its
// demand: measured, estimated from its medium, or its link's ceiling) fall well below what each would get
// alone, grouped by the link that stops them; and, as INFO, drives that share a link their demands fit but
// their links' ceilings would not.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

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

/// Shares grouped by the resource that stops them, in first-seen order.
struct Groups {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const DriveShare*>> by;
};
Groups group_shares(const std::vector<DriveShare>& shares) {
  Groups g;
  for (const auto& s : shares) {
    if (!g.by.contains(s.bottleneck)) g.order.push_back(s.bottleneck);
    g.by[s.bottleneck].push_back(&s);
  }
  return g;
}

/// A group of two or more plausible shares of which at least one gets less than the threshold of its demand.
bool contends(const Context& cx, const std::vector<const DriveShare*>& g) {
  if (g.size() < 2 ||
      !std::all_of(g.begin(), g.end(), [](const DriveShare* s) { return plausible_share(*s); }))
    return false;
  return std::any_of(g.begin(), g.end(), [&](const DriveShare* s) {
    return s->predicted_mbps < cx.config.shared_threshold * s->demand_mbps;
  });
}

/// The free USB3 connectors, and for each node the ones below it: found once per check, not per finding (a
/// machine can have thousands).
struct FreeConnectors {
  std::vector<const Connector*> all;
  std::map<Vertex, std::vector<std::size_t>> below;  ///< node -> indices into `all`
};
FreeConnectors free_connectors(const Context& cx) {
  FreeConnectors fc{free_usb3_connectors(cx.t), {}};
  for (std::size_t i = 0; i < fc.all.size(); ++i)
    for (std::optional<Vertex> v = *fc.all[i]->usb3_port; v; v = parent(cx.t, *v)) fc.below[*v].push_back(i);
  return fc;
}

/// Free connectors whose path does not cross the bottleneck node, for the fix.
std::vector<const Connector*> connectors_avoiding(const Context& cx, const FreeConnectors& fc,
                                                  const std::string& node) {
  std::vector<const Connector*> out;
  const auto bv = cx.t.find_by_name(node);
  if (!bv) return out;
  std::vector<bool> behind(fc.all.size());
  if (auto it = fc.below.find(*bv); it != fc.below.end())
    for (std::size_t i : it->second) behind[i] = true;
  for (std::size_t i = 0; i < fc.all.size(); ++i)
    if (!behind[i]) out.push_back(fc.all[i]);
  return out;
}

/// "demand bases: sdb measured 2026-12-06, sdc estimate": which basis each demand has, in a word (the
/// evidence has each in a sentence).
std::string bases_text(const Context& cx, const std::vector<const DriveShare*>& g) {
  std::vector<std::string> parts;
  for (const auto* s : g) parts.push_back(share_names(cx, *s).front() + " " + basis_short(s->basis));
  return "demand bases: " + topology::join(parts, ", ");
}

/// A finding about the link `s` is stopped by: its label and capacity as evidence under `key`, and the
/// capacity's basis when it is not the table's (measured, published).
Finding link_finding(const Context& cx, FindingSeverity severity, const std::string& key,
                     const DriveShare& s) {
  auto f = cx.finding(severity, {});
  ev(f, key, topology::escape_unprintable(s.bottleneck_label));
  ev(f, key + " capacity (MB/s)", fmt::format("{:.0f}", s.bottleneck_capacity_mbps));
  if (s.bottleneck_basis)
    ev(f, key + " capacity basis",
       describe_capacity_basis(*s.bottleneck_basis,
                               topology::Bandwidth::from_mbs(s.bottleneck_capacity_mbps)));
  return f;
}

/// One drive of a group into a finding: its names into `devices`, its demand's basis as evidence; its name.
std::string add_drive(const Context& cx, Finding& f, const DriveShare& s, std::vector<std::string>& devices) {
  const auto names = share_names(cx, s);
  for (const auto& n : names) add_unique(devices, n);
  ev(f, names.front() + " demand basis", describe_basis(s.basis));
  return names.front();
}

void warn_group(const Context& cx, const FreeConnectors& fc, const std::vector<const DriveShare*>& g) {
  const std::string label = topology::escape_unprintable(g.front()->bottleneck_label);
  std::vector<std::string> devices, shares_txt;
  double demand = 0;
  auto f = link_finding(cx, FindingSeverity::Warning, "bottleneck", *g.front());
  for (const auto* s : g) {
    const std::string name = add_drive(cx, f, *s, devices);
    demand += s->demand_mbps;
    ev(f, name + " alone / shared (MB/s)", fmt::format("{:.0f} / {:.0f}", s->demand_mbps, s->predicted_mbps));
    shares_txt.push_back(fmt::format("{} {} (alone {})", name, topology::mbs_text(s->predicted_mbps),
                                     topology::mbs_figure(s->demand_mbps)));
  }
  f.devices = std::move(devices);
  f.message = fmt::format(
      "{} drives share the {}: about {} usable for {} of combined demand ({}). With all of them busy the "
      "bandwidth model predicts {}.",
      g.size(), label, topology::mbs_text(g.front()->bottleneck_capacity_mbps), topology::mbs_text(demand),
      bases_text(cx, g), topology::join(shares_txt, ", "));
  const auto avoid = connectors_avoiding(cx, fc, g.front()->bottleneck_node);
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

/// INFO: drives that would contend at their links' ceilings (`at_ceiling`) but whose demands fit.
void inform_group(const Context& cx, const std::vector<const DriveShare*>& at_ceiling,
                  const std::map<Vertex, const DriveShare*>& real) {
  std::vector<const DriveShare*> g;
  for (const auto* s : at_ceiling)
    if (auto it = real.find(*s->block); it != real.end()) g.push_back(it->second);
  if (g.size() != at_ceiling.size()) return;
  double demand = 0, ceiling = 0;
  for (const auto* s : g) demand += s->demand_mbps;
  for (const auto* s : at_ceiling) ceiling += s->demand_mbps;
  const std::string label = topology::escape_unprintable(at_ceiling.front()->bottleneck_label);
  std::vector<std::string> devices;
  auto f = link_finding(cx, FindingSeverity::Info, "shared link", *at_ceiling.front());
  for (const auto* s : g)
    ev(f, add_drive(cx, f, *s, devices) + " demand (MB/s)", fmt::format("{:.0f}", s->demand_mbps));
  f.devices = std::move(devices);
  f.message = fmt::format(
      "{} drives share the {} (about {}), and their demands fit it: {} together ({}). Drives as fast as "
      "their links ({} together) would split it.",
      g.size(), label, topology::mbs_text(at_ceiling.front()->bottleneck_capacity_mbps),
      topology::mbs_text(demand), bases_text(cx, g), topology::mbs_text(ceiling));
  f.fix =
      "Nothing to change for these drives. Faster drives here would share it: `usbsat plan` shows where "
      "they would not.";
  cx.out.push_back(std::move(f));
}

}  // namespace

void check_shared_bandwidth(const Context& cx) {
  if (!cx.config.predictor) return;
  const auto shares = cx.config.predictor->predict(cx.t);
  const auto groups = group_shares(shares);
  std::set<Vertex> warned;
  const auto fc = free_connectors(cx);
  for (const auto& key : groups.order)
    if (const auto& g = groups.by.at(key); contends(cx, g)) {
      warn_group(cx, fc, g);
      for (const auto* s : g) warned.insert(s->drive);
    }
  // What only the links' ceilings would make contend: said once, as INFO.
  std::map<Vertex, const DriveShare*> real;
  for (const auto& s : shares)
    if (s.block) real[*s.block] = &s;
  const auto ceiling = cx.config.predictor->predict_at_link_ceiling(cx.t);
  const auto at_ceiling = group_shares(ceiling);
  for (const auto& key : at_ceiling.order) {
    const auto& g = at_ceiling.by.at(key);
    if (!contends(cx, g) || std::any_of(g.begin(), g.end(), [&](const DriveShare* s) {
          return warned.contains(s->drive) || !s->block;
        }))
      continue;
    inform_group(cx, g, real);
  }
}

}  // namespace usbsat::analysis::doctor
