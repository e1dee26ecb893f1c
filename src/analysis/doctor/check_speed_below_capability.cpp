// speed_below_capability: a device negotiated below what it, its port and its controller can do.
#include <algorithm>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

/// A free connector with a SuperSpeed side, and the speed of that side's hub (looked up once, not per
/// finding).
struct FreeUsb3 {
  const Connector* c;
  std::optional<UsbSpeed> hub_speed;
};

/// Free connectors with a SuperSpeed side: the computer's own first, then those of external hubs (one more
/// link to share). Found once per check: every finding picks from this list.
std::vector<FreeUsb3> free_usb3_in_order(const Topology& t) {
  auto found = free_usb3_connectors(t);
  std::stable_partition(found.begin(), found.end(),
                        [&](const Connector* c) { return t[c->hub].kind == NodeKind::RootHub; });
  std::vector<FreeUsb3> out;
  out.reserve(found.size());
  for (const Connector* c : found) out.push_back({c, t[*c->usb3_port].as<PortInfo>().hub_speed});
  return out;
}

/// The connectors of `free` with a SuperSpeed side fast enough for `need`, on controller `ctrl` (or on any
/// other controller when `other_controllers`).
std::vector<const Connector*> free_fast_connectors(const std::vector<FreeUsb3>& free, Vertex ctrl,
                                                   UsbSpeed need, bool other_controllers) {
  std::vector<const Connector*> out;
  for (const auto& [c, hub_speed] : free) {
    if ((c->controller == ctrl) == other_controllers) continue;
    if (hub_speed && *hub_speed < need) continue;
    out.push_back(c);
  }
  return out;
}

/// Where the device is plugged in, as far as the cause of a slow link goes.
struct Where {
  const PortInfo* port = nullptr;      ///< its upstream port, if scanned
  std::optional<Connector> conn;       ///< that port's connector
  bool peer_garbage = false;           ///< the port's peer attribute names nothing in the scan (or itself)
  std::optional<Vertex> slow_hub;      ///< the first hub above it whose own link is slower than `cap`
  std::optional<Vertex> ctrl;          ///< its controller
  std::optional<Vertex> root;          ///< the controller's fastest root hub with a known speed
  std::optional<UsbSpeed> root_speed;  ///< ... and its speed
};

/// Step 1: the port, connector, hub chain and controller of `d`; adds the port's peer and the root hub's
/// speed to the evidence.
Where locate(const Context& cx, const StorageDevice& d, UsbSpeed cap, Finding& f) {
  Where w;
  const auto port = parent(cx.t, d.dev);
  w.port = port ? cx.t[*port].get_if<PortInfo>() : nullptr;
  if (w.port) {
    ev(f, w.port->name + "/peer", topology::describe_peer(cx.t, *w.port));
    if (auto ci = connector_of(cx.t, *port)) w.conn = cx.t.connectors()[*ci];
  }
  w.peer_garbage = w.port && w.port->peer && !topology::peer_resolves(cx.t, *w.port);
  for (Vertex h : hub_chain(cx.t, d.dev)) {
    const auto& hu = usb(cx.t, h);
    if (plausible_speed(hu.speed) && *hu.speed < cap) {
      w.slow_hub = h;
      break;
    }
  }
  // The fastest root hub of the controller says what the controller can do (an xHCI has a USB2 and a USB3
  // one).
  w.ctrl = controller_of(cx.t, d.dev);
  for (Vertex rh : w.ctrl ? children(cx.t, *w.ctrl) : std::vector<Vertex>{}) {
    const auto* ru = cx.t[rh].get_if<UsbDeviceInfo>();
    if (!ru || cx.t[rh].kind != NodeKind::RootHub || !plausible_speed(ru->speed)) continue;
    if (!w.root_speed || *ru->speed > *w.root_speed) {
      w.root = rh;
      w.root_speed = ru->speed;
    }
  }
  if (w.root) ev(f, usb(cx.t, *w.root).name + "/speed", topology::sysfs_speed_text(w.root_speed));
  return w;
}

/// Why the link runs slower than the device can, and what the fix adds to moving it ("" for nothing).
struct Cause {
  std::string text;
  std::string fix_extra;
};

/// Step 2: the cause, from the most to the least certain; adds the evidence it rests on.
Cause explain(const Context& cx, const Where& w, UsbSpeed speed, UsbSpeed cap, Finding& f) {
  const auto& conn = w.conn;
  if (w.slow_hub) {
    const auto& hu = usb(cx.t, *w.slow_hub);
    ev(f, hu.name + "/speed", topology::sysfs_speed_text(hu.speed));
    return {fmt::format("it is behind hub {} whose own link runs at {}", hu.name,
                        topology::usb_rate_text(*hu.speed)),
            "or connect it directly instead of through hub " + hu.name};
  }
  if (!w.root_speed)  // No root hub (or none with a known speed) above it: what the controller can do is
                      // unknown.
    return {w.ctrl
                ? "the cause is unknown: its controller's root hub is missing from the scan or has no known "
                  "speed"
                : "the cause is unknown: its host controller is missing from the scan",
            ""};
  if (*w.root_speed < cap)
    return {
        is_superspeed(*w.root_speed)
            ? fmt::format("its controller's SuperSpeed root hub runs at most {} (a USB 3.2 Gen 1 controller)",
                          topology::usb_rate_text(*w.root_speed))
            : "its controller has no SuperSpeed root hub (USB 2.0 only)",
        ""};
  if (!is_superspeed(speed) && w.peer_garbage)
    return {fmt::format("the cause is unknown: port {} names a USB3 peer that is not in the scan ({})",
                        w.port->name, topology::describe_peer(cx.t, *w.port)),
            ""};
  if (!is_superspeed(speed) && conn && !conn->usb3_port && conn->usb2_port &&
      topology::superspeed_peer_unknown(cx.t, *conn->usb2_port))
    return {fmt::format(
                "the cause is unknown: no port of {}'s hub has a `peer` link, so whether connector {} has "
                "a USB3 side is unknown (a USB 2.0-only connector, or a USB 2.0 cable, extension or "
                "adapter on a USB3 one)",
                conn->id, conn->id),
            "or try it with a short USB 3 cable in a connector known to have a USB3 side"};
  if (!is_superspeed(speed) && conn && (!conn->usb3_port || not_used(cx.t, conn->usb3_port))) {
    if (conn->usb3_port) ev(f, cx.t[*conn->usb3_port].as<PortInfo>().name + "/connect_type", "not used");
    return {
        conn->usb3_port
            ? fmt::format("connector {} is USB 2.0 only (the firmware marks its USB3 peer {} as not used)",
                          conn->id, cx.t[*conn->usb3_port].as<PortInfo>().name)
            : fmt::format("connector {} is USB 2.0 only (its port has no USB3 peer)", conn->id),
        ""};
  }
  if (!is_superspeed(speed) && conn && conn->usb3_port)
    return {fmt::format(
                "connector {} has a USB3 side ({}) but the device connected on its USB 2.0 side: a USB 2.0 "
                "cable, "
                "extension or adapter, a dirty or damaged connector, or SuperSpeed link training failed (the "
                "kernel log "
                "then says 'Cannot enable. Maybe the USB cable is bad?')",
                conn->id, cx.t[*conn->usb3_port].as<PortInfo>().name),
            "or use a short USB 3 cable directly into this connector"};
  return {fmt::format(
              "port and controller support {} but the link trained at {}: a cable or adapter rated for "
              "{} only, or a connector problem",
              topology::usb_rate_text(cap), topology::usb_rate_text(speed), topology::usb_rate_text(speed)),
          "or use a cable rated for " + topology::usb_rate_text(cap)};
}

/// Step 3: the fix: a free connector at full speed on the same controller, else on another, else none.
void suggest(const Context& cx, const std::vector<FreeUsb3>& free_usb3, std::optional<Vertex> ctrl,
             UsbSpeed cap, const std::string& fix_extra, Finding& f) {
  const auto same =
      ctrl ? free_fast_connectors(free_usb3, *ctrl, cap, false) : std::vector<const Connector*>{};
  const auto other =
      ctrl ? free_fast_connectors(free_usb3, *ctrl, cap, true) : std::vector<const Connector*>{};
  if (!same.empty()) {
    ev(f, "free connectors at full speed (same controller)", evidence_list(cx.t, same));
    f.fix =
        fmt::format("Move it to {} on the same controller (these have a {} side){}.", short_list(cx.t, same),
                    topology::usb_rate_text(cap), fix_extra.empty() ? "" : ", " + fix_extra);
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
    const Where w = locate(cx, d, cap, f);
    const Cause cause = explain(cx, w, speed, cap, f);
    f.message = fmt::format("{} can run at {} but negotiated {}: {}.", device_label(cx.t, d),
                            topology::usb_rate_text(cap), topology::usb_rate_text(speed), cause.text);
    suggest(cx, free_usb3, w.ctrl, cap, cause.fix_extra, f);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
