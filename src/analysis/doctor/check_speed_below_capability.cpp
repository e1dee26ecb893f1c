// speed_below_capability: a device negotiated below what it, its port and its controller can do.
#include <algorithm>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;
using report::FindingSeverity;

/// Free connectors with a SuperSpeed side: the computer's own first, then those of external hubs (one more
/// link to share). Found once per check: every finding picks from this list.
std::vector<const Connector*> free_usb3_in_order(const Topology& t) {
  auto out = free_usb3_connectors(t);
  std::stable_partition(out.begin(), out.end(),
                        [&](const Connector* c) { return t[c->hub].kind == NodeKind::RootHub; });
  return out;
}

/// The connectors of `free` with a SuperSpeed side fast enough for `need`, on controller `ctrl` (or on any
/// other controller when `other_controllers`).
std::vector<const Connector*> free_fast_connectors(const Topology& t,
                                                   const std::vector<const Connector*>& free, Vertex ctrl,
                                                   UsbSpeed need, bool other_controllers) {
  std::vector<const Connector*> out;
  for (const Connector* c : free) {
    if ((c->controller == ctrl) == other_controllers) continue;
    const auto& p3 = t[*c->usb3_port].as<PortInfo>();
    if (p3.hub_speed && *p3.hub_speed < need) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace

void check_speed_below_capability(const Context& cx) {
  const auto free_usb3 = free_usb3_in_order(cx.t);
  for (const auto& d : cx.devices) {
    const auto& u = usb(cx.t, d.dev);
    if (!plausible_speed(u.speed) || !plausible_speed(u.capable_speed)) continue;
    const UsbSpeed speed = *u.speed, cap = *u.capable_speed;
    if (!is_superspeed(cap) || speed >= cap) continue;
    // bcdUSB 3.1/3.2 alone does not prove 10 Gb/s (Gen 1 devices report it too): only the BOS does.
    if (!u.capable_from_bos && is_superspeed(speed)) continue;

    auto f = cx.finding(is_superspeed(speed) ? FindingSeverity::Warning : FindingSeverity::Problem,
                        device_names(cx.t, d));
    ev(f, u.name + "/speed", topology::sysfs_speed_text(u.speed));
    ev(f, u.name + (u.capable_from_bos ? "/bos_descriptors (capable speed)" : "/version (capable speed)"),
       std::string(to_sysfs_string(cap)));
    if (!u.version.empty()) ev(f, u.name + "/version", u.version);

    std::string cause;
    const auto port = parent(cx.t, d.dev);
    const PortInfo* pi = port ? cx.t[*port].get_if<PortInfo>() : nullptr;
    std::optional<Connector> conn;
    if (pi) {
      ev(f, pi->name + "/peer", topology::describe_peer(cx.t, *pi));
      if (auto ci = connector_of(cx.t, *port)) conn = cx.t.connectors()[*ci];
    }
    // A peer attribute that names nothing in the scan (or the port itself) says nothing about the connector.
    const bool peer_garbage = pi && pi->peer && !topology::peer_resolves(cx.t, *pi);
    std::optional<Vertex> slow_hub;
    for (Vertex h : hub_chain(cx.t, d.dev)) {
      const auto& hu = usb(cx.t, h);
      if (plausible_speed(hu.speed) && *hu.speed < cap) {
        slow_hub = h;
        break;
      }
    }
    // The fastest root hub of the controller says what the controller can do (an xHCI has a USB2 and a USB3
    // one).
    const auto ctrl = controller_of(cx.t, d.dev);
    std::optional<Vertex> root;
    std::optional<UsbSpeed> root_speed;
    for (Vertex rh : ctrl ? children(cx.t, *ctrl) : std::vector<Vertex>{}) {
      const auto* ru = cx.t[rh].get_if<UsbDeviceInfo>();
      if (!ru || cx.t[rh].kind != NodeKind::RootHub || !plausible_speed(ru->speed)) continue;
      if (!root_speed || *ru->speed > *root_speed) {
        root = rh;
        root_speed = ru->speed;
      }
    }
    if (root) ev(f, usb(cx.t, *root).name + "/speed", topology::sysfs_speed_text(root_speed));
    std::string fix_extra;
    if (slow_hub) {
      const auto& hu = usb(cx.t, *slow_hub);
      ev(f, hu.name + "/speed", topology::sysfs_speed_text(hu.speed));
      cause = fmt::format("it is behind hub {} whose own link runs at {}", hu.name,
                          topology::usb_rate_text(*hu.speed));
      fix_extra = "or connect it directly instead of through hub " + hu.name;
    } else if (!root_speed) {
      // No root hub (or none with a known speed) above it: what the controller can do is unknown.
      cause =
          ctrl ? "the cause is unknown: its controller's root hub is missing from the scan or has no known "
                 "speed"
               : "the cause is unknown: its host controller is missing from the scan";
    } else if (*root_speed < cap) {
      cause = is_superspeed(*root_speed)
                  ? fmt::format(
                        "its controller's SuperSpeed root hub runs at most {} (a USB 3.2 Gen 1 controller)",
                        topology::usb_rate_text(*root_speed))
                  : "its controller has no SuperSpeed root hub (USB 2.0 only)";
    } else if (!is_superspeed(speed) && peer_garbage) {
      cause = fmt::format("the cause is unknown: port {} names a USB3 peer that is not in the scan ({})",
                          pi->name, topology::describe_peer(cx.t, *pi));
    } else if (!is_superspeed(speed) && conn && (!conn->usb3_port || not_used(cx.t, conn->usb3_port))) {
      if (conn->usb3_port) ev(f, cx.t[*conn->usb3_port].as<PortInfo>().name + "/connect_type", "not used");
      cause =
          conn->usb3_port
              ? fmt::format("connector {} is USB 2.0 only (the firmware marks its USB3 peer {} as not used)",
                            conn->id, cx.t[*conn->usb3_port].as<PortInfo>().name)
              : fmt::format("connector {} is USB 2.0 only (its port has no USB3 peer)", conn->id);
    } else if (!is_superspeed(speed) && conn && conn->usb3_port) {
      cause = fmt::format(
          "connector {} has a USB3 side ({}) but the device connected on its USB 2.0 side: a USB 2.0 cable, "
          "extension or adapter, a dirty or damaged connector, or SuperSpeed link training failed (the "
          "kernel log "
          "then says 'Cannot enable. Maybe the USB cable is bad?')",
          conn->id, cx.t[*conn->usb3_port].as<PortInfo>().name);
      fix_extra = "or use a short USB 3 cable directly into this connector";
    } else {
      cause = fmt::format(
          "port and controller support {} but the link trained at {}: a cable or adapter rated for "
          "{} only, or a connector problem",
          topology::usb_rate_text(cap), topology::usb_rate_text(speed), topology::usb_rate_text(speed));
      fix_extra = "or use a cable rated for " + topology::usb_rate_text(cap);
    }
    f.message = fmt::format("{} can run at {} but negotiated {}: {}.", device_label(cx.t, d),
                            topology::usb_rate_text(cap), topology::usb_rate_text(speed), cause);

    const auto same =
        ctrl ? free_fast_connectors(cx.t, free_usb3, *ctrl, cap, false) : std::vector<const Connector*>{};
    const auto other =
        ctrl ? free_fast_connectors(cx.t, free_usb3, *ctrl, cap, true) : std::vector<const Connector*>{};
    if (!same.empty()) {
      ev(f, "free connectors at full speed (same controller)", evidence_list(cx.t, same));
      f.fix = fmt::format("Move it to {} on the same controller (these have a {} side){}.",
                          short_list(cx.t, same), topology::usb_rate_text(cap),
                          fix_extra.empty() ? "" : ", " + fix_extra);
    } else if (!other.empty()) {
      ev(f, "free connectors at full speed (other controllers)", evidence_list(cx.t, other));
      f.fix = fmt::format(
          "No free connector of this controller runs at {}; move it to {} on another controller{}.",
          topology::usb_rate_text(cap), short_list(cx.t, other), fix_extra.empty() ? "" : ", " + fix_extra);
    } else {
      f.fix = fmt::format("No free connector on this machine runs at {}{}; a {} card or hub would.",
                          topology::usb_rate_text(cap), fix_extra.empty() ? "" : " (" + fix_extra + ")",
                          topology::usb_rate_text(cap));
    }
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
