// slow_hub_uplink: a hub whose upstream link is slower than the drives behind it, or shared by several.
#include <map>
#include <set>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

namespace {

using Devices = std::vector<const StorageDevice*>;

/// What a device wants from its hubs: its capability, else its negotiated speed; unknown speeds want nothing.
std::optional<UsbSpeed> want_of(const Topology& t, const StorageDevice& d) {
  const auto& u = usb(t, d.dev);
  if (plausible_speed(u.capable_speed)) return u.capable_speed;
  if (plausible_speed(u.speed)) return u.speed;
  return std::nullopt;
}

/// Per hub: the devices with media below it (`all`), the devices for which it is the root-most hub slower
/// than the device (`slowed_at`), and the hubs that carry exactly the drives of a child hub.
struct HubLoads {
  std::map<Vertex, Devices> all, slowed_at;
  std::set<Vertex> same_as_child;
};

/// Step 1: every hub's load, from each storage device's hub chain.
HubLoads hub_loads(const Context& cx) {
  HubLoads l;
  std::map<Vertex, std::optional<Vertex>> parent_hub;
  for (const auto& d : cx.devices) {
    // Several drives behind one hub count media: an empty card reader loads nothing.
    const bool loads = !d.media().empty();
    const auto chain = hub_chain(cx.t, d.dev);
    bool slow_found = false;
    for (std::size_t k = 0; k < chain.size(); ++k) {
      const Vertex h = chain[k];
      if (loads) l.all[h].push_back(&d);
      parent_hub[h] = k ? std::optional<Vertex>(chain[k - 1]) : std::nullopt;
      const auto hs = usb(cx.t, h).speed;
      const auto want = want_of(cx.t, d);
      if (!slow_found && plausible_speed(hs) && want && *hs < *want) {
        l.slowed_at[h].push_back(&d);
        l.all[h];  // a slowed device is reported even when it has no medium
        slow_found = true;
      }
    }
  }
  // "Several drives behind one hub" is reported at the deepest hub that carries exactly that set of drives
  // (the external hub, not the rate-matching hub above it that has nothing else).
  for (const auto& [h, ds] : l.all)
    if (auto p = parent_hub.at(h); p && l.all.contains(*p) && l.all.at(*p).size() == ds.size())
      l.same_as_child.insert(*p);
  return l;
}

/// Step 2: the hub's speed, version and ids, and each named device's speed and capability.
void add_hub_evidence(const Context& cx, const UsbDeviceInfo& hu, const Devices& ds, Finding& f) {
  ev(f, hu.name + "/speed", topology::sysfs_speed_text(hu.speed));
  if (!hu.version.empty()) ev(f, hu.name + "/version", hu.version);
  if (const auto ids = topology::usb_ids(hu); !ids.empty()) ev(f, hu.name + " idVendor:idProduct", ids);
  for (const auto* d : ds) {
    const auto& u = usb(cx.t, d->dev);
    ev(f, u.name + "/speed", topology::sysfs_speed_text(u.speed));
    if (u.capable_speed) ev(f, u.name + " capable speed", std::string(to_sysfs_string(*u.capable_speed)));
  }
}

/// Step 3: what is wrong: the devices the hub slows down, and/or `drives` sharing its uplink.
std::string hub_message(const Context& cx, const UsbDeviceInfo& hu, const Devices& slowed, bool several,
                        std::size_t drives) {
  const std::string hub_rate =
      plausible_speed(hu.speed) ? topology::usb_rate_text(*hu.speed) : "an unknown speed";
  std::vector<std::string> parts;
  if (!slowed.empty()) {
    std::vector<std::string> names;
    for (const auto* d : slowed) names.push_back(device_label(cx.t, *d));
    const UsbSpeed want = *want_of(cx.t, *slowed.front());
    std::string why;
    if (plausible_speed(hu.capable_speed) && *hu.capable_speed > *hu.speed && !hu.hub_peer)
      why = fmt::format(" although the hub itself can do {} (its USB3 half did not connect: cable or port)",
                        topology::usb_rate_text(*hu.capable_speed));
    parts.push_back(fmt::format("{} is connected upstream at {}{}, slower than {} behind it can run ({})",
                                topology::describe_hub(hu), hub_rate, why, topology::join(names, ", "),
                                topology::usb_rate_text(want)));
  }
  if (several)
    parts.push_back(fmt::format(
        "{} drives share this hub's {} uplink and split it when they are busy at once", drives, hub_rate));
  return topology::join(parts, "; ") + ".";
}

/// Step 4: when every slowed drive's demand is known (measured or estimated) and all of them together fit
/// the hub's uplink, the sentence that says so: the hub would slow only faster drives. nullopt otherwise.
std::optional<std::string> demands_fit(const UsbDeviceInfo& hu, const Devices& slowed,
                                       const std::map<Vertex, const DriveShare*>& shares) {
  if (slowed.empty() || !plausible_speed(hu.speed)) return std::nullopt;
  const auto cap = topology::usb_shared_capacity(topology::usb_rate(*hu.speed, hu.rx_lanes.value_or(1)));
  if (!cap) return std::nullopt;
  double total = 0;
  std::vector<std::string> parts;
  for (const auto* d : slowed)
    for (const auto* m : d->media()) {
      const auto it = shares.find(m->block);
      if (it == shares.end() || it->second->basis.kind == BasisKind::LinkCeiling) return std::nullopt;
      total += it->second->demand_mbps;
      parts.push_back(fmt::format("{} {}, {}", m->name, topology::mbs_text(it->second->demand_mbps),
                                  describe_basis(it->second->basis)));
    }
  if (parts.empty() || total > cap->mbs()) return std::nullopt;
  return fmt::format(
      "Their demands fit the hub's uplink (about {}): {}; it slows only drives faster than these.",
      topology::mbs_text(cap->mbs()), topology::join(parts, "; "));
}

}  // namespace

void check_slow_hub_uplink(const Context& cx) {
  auto loads = hub_loads(cx);
  // Each drive's demand (measured, estimated or its link's ceiling), by its block device.
  const auto predicted = cx.config.predictor ? cx.config.predictor->predict(cx.t) : std::vector<DriveShare>{};
  std::map<Vertex, const DriveShare*> shares;
  for (const auto& s : predicted)
    if (s.block) shares[*s.block] = &s;
  for (const auto& [h, ds_all] : loads.all) {  // std::map over vertex numbers: depth-first topology order
    const auto& slowed = loads.slowed_at[h];
    std::size_t drives = 0;
    for (const auto* d : ds_all) drives += d->media().size();
    const bool several = drives >= 2 && !loads.same_as_child.contains(h);
    if (slowed.empty() && !several) continue;
    const auto& ds = several ? ds_all : slowed;
    const auto& hu = usb(cx.t, h);
    std::vector<std::string> devices;
    for (const auto* d : ds)
      for (auto& n : device_names(cx.t, *d)) add_unique(devices, n);
    devices.push_back(hu.name);
    const auto fits = demands_fit(hu, slowed, shares);
    auto f = cx.finding(slowed.empty() || fits ? FindingSeverity::Info : FindingSeverity::Warning, devices);
    add_hub_evidence(cx, hu, ds, f);
    f.message = hub_message(cx, hu, slowed, several, drives) + (fits ? " " + *fits : "");
    f.fix = slowed.empty() || fits
                ? "Fine for one drive at a time; for concurrent backups put the drives on separate root-hub "
                  "connectors (`usbsat plan` suggests where)."
                : fmt::format(
                      "Connect the drive(s) directly to a {} connector of the computer, or replace the hub "
                      "with one whose uplink is at least as fast as the drives.",
                      topology::usb_rate_text(*want_of(cx.t, *slowed.front())));
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
