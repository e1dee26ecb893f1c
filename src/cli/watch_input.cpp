#include "src/cli/watch_input.hpp"

#include "report/drives_view.hpp"

namespace usbsat::cli {
namespace {

/// The shared node's kind as the watch JSON names it (report/schemas/watch-event.schema.json).
std::string share_kind(topology::NodeKind k) {
  switch (k) {
    case topology::NodeKind::Hub:
      return "hub";
    case topology::NodeKind::RootHub:
      return "usb_bus";
    case topology::NodeKind::PciHop:
      return "pcie_link";
    default:
      break;
  }
  return "controller";
}

report::WatchMove to_report(const analysis::watch::Move& m) {
  report::WatchMove r;
  r.connector = m.connector;
  r.description = m.description;
  r.speed = std::string(topology::to_string(m.connector.speed_class));
  r.controller = m.controller;
  r.own_controller = m.own_controller;
  r.now_mbs = m.now_mbs;
  r.then_mbs = m.then_mbs;
  return r;
}

}  // namespace

report::WatchEvent to_report(const analysis::watch::Verdict& v) {
  report::WatchEvent e;
  e.action = v.action;
  e.dev = v.dev;
  e.devnode = v.devnode;
  e.drive = v.drive;
  e.size_bytes = v.size_bytes;
  e.has_media = v.has_media;
  e.connector = v.connector;
  e.connector_text = v.connector_text;
  e.side = v.side;
  e.where = v.where;
  e.speed = v.speed;
  e.capable = v.capable;
  e.protocol = v.protocol;
  e.uas_capable = v.uas_capable;
  e.uas_blocked_reason = v.uas_blocked_reason;
  if (v.running) e.notes = report::drive_notes(*v.running);
  for (const auto& s : v.sharing) e.sharing.push_back({share_kind(s.kind), s.node, s.label, s.drives});
  if (v.tunnel)
    e.tunnel = report::WatchTunnel{v.tunnel->router, v.tunnel->label, v.tunnel->text,
                                   v.tunnel->usb3_tunnel_gbps, v.tunnel->path};
  e.findings = v.findings;
  if (v.move) e.move = to_report(*v.move);
  return e;
}

}  // namespace usbsat::cli
