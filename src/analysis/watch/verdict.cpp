// The watch verdict: one drive's facts, sharing, findings and best connector, from the existing analyses.
#include "src/analysis/watch/verdict.hpp"

#include <algorithm>

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/model/grouping.hpp"
#include "src/analysis/plan/planner.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/drives.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::watch {
namespace {

using topology::Topology;
using topology::Vertex;

/// The facts every verdict has: the drive's name, size and where it is plugged in.
Verdict basics(const Topology& t, const common::UsbDrive& d, std::string action) {
  Verdict e;
  e.action = std::move(action);
  e.dev = d.name;
  e.devnode = d.devnode;
  e.has_media = d.has_media;
  e.drive = topology::describe_drive(t[d.device].as<topology::UsbDeviceInfo>(), d.name);
  const auto s = topology::summarize_drive(t, d.block);
  e.size_bytes = s.size_bytes;
  e.connector = s.connector;
  if (s.connector) e.connector_text = topology::describe_connector(t, t.connectors()[s.connector->index]);
  e.where = topology::drive_where(t, d.block);
  return e;
}

std::vector<Share> sharing(const Topology& t, const common::UsbDrive& d) {
  std::vector<Vertex> blocks;
  for (const auto& m : common::usb_drives_with_media(t)) blocks.push_back(m.block);
  std::vector<Share> out;
  for (const auto& g : model::shared_node_groups(t, blocks)) {
    if (std::find(g.drives.begin(), g.drives.end(), d.name) == g.drives.end()) continue;
    Share s{g.kind, g.name, topology::describe_node(t, g.node), {}};
    for (const auto& other : g.drives)
      if (other != d.name) s.drives.push_back(other);
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<Tunnel> tunnel_of(const Topology& t, const common::UsbDrive& d) {
  const auto l = topology::usb4_link_of(t, d.block);
  if (!l) return std::nullopt;
  Tunnel out{l->name, l->label, topology::describe_usb3_tunnel(*l), std::nullopt, {}};
  if (l->usb3_tunnel) out.usb3_tunnel_gbps = static_cast<double>(l->usb3_tunnel->bytes_per_s) * 8 / 1e9;
  for (const auto& h : l->path) out.path.push_back(h.router);
  return out;
}

std::vector<doctor::Finding> findings_for(const Topology& t, const common::UsbDrive& d,
                                          const doctor::DoctorConfig& config) {
  const std::string usb = t[d.device].as<topology::UsbDeviceInfo>().name;
  std::vector<doctor::Finding> out;
  for (auto& f : doctor::diagnose(t, config).findings)
    if (std::find_if(f.devices.begin(), f.devices.end(),
                     [&](const std::string& n) { return n == d.name || n == usb; }) != f.devices.end())
      out.push_back(std::move(f));
  return out;
}

/// The planner's best connector for this one drive, when it is not the one it is in.
std::optional<Move> better_connector(const Topology& t, const common::UsbDrive& d) {
  plan::PlanRequest req;
  req.devices = {d.name};
  const auto p = plan::make_plan(t, req);
  if (p.placements.size() != 1 || !p.placements[0].moved || !p.current || p.current->drives.size() != 1)
    return std::nullopt;
  const auto& pl = p.placements[0];
  const auto& c = t.connectors()[pl.connector];
  Move m;
  m.connector = topology::summarize_connector(t, pl.connector);
  m.description = topology::describe_connector(t, c);
  m.controller = topology::controller_label(t[c.controller].as<topology::ControllerInfo>());
  m.own_controller = true;
  for (const auto& other : common::usb_drives_with_media(t))
    if (other.name != d.name && topology::controller_of(t, other.block) == c.controller)
      m.own_controller = false;
  m.now_mbs = p.current->drives[0].predicted.mbs();
  m.then_mbs = pl.prediction.predicted.mbs();
  return m;
}

}  // namespace

std::optional<Verdict> verdict(const Topology& before, const Topology& after, const BlockEvent& ev,
                               const doctor::DoctorConfig& doctor) {
  const auto find = [&](const Topology& t) -> std::optional<common::UsbDrive> {
    for (auto& d : common::usb_drives(t))
      if (d.name == ev.dev) return d;
    return std::nullopt;
  };
  if (ev.action == "remove") {
    const auto d = find(before);
    if (!d) return std::nullopt;
    return basics(before, *d, "remove");
  }
  if (ev.action != "add") return std::nullopt;
  const auto d = find(after);
  if (!d) return std::nullopt;
  auto e = basics(after, *d, "add");
  const auto s = topology::summarize_drive(after, d->block);
  e.speed = s.speed;
  e.capable = s.capable_speed;
  if (s.speed) e.side = *s.speed >= topology::UsbSpeed::Super ? "USB3" : "USB2";
  if (s.protocol) e.protocol = std::string(topology::to_string(*s.protocol));
  e.uas_capable = s.uas_capable;
  e.uas_blocked_reason = s.uas_blocked_reason;
  e.running = s;
  e.sharing = sharing(after, *d);
  e.tunnel = tunnel_of(after, *d);
  e.findings = findings_for(after, *d, doctor);
  if (d->has_media) e.move = better_connector(after, *d);
  return e;
}

}  // namespace usbsat::analysis::watch
