#include "src/analysis/doctor/doctor.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "topology/bandwidth.hpp"
#include "topology/sysfs_parse.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;
using report::Finding;
using report::FindingSeverity;

// ---- small helpers -----------------------------------------------------------------------------------

/// A USB mass-storage function: its device vertex, storage interfaces and whole-disk block devices.
struct Drive {
  Vertex dev{};
  std::vector<Vertex> ifaces;
  std::vector<Vertex> blocks;
};

bool is_storage(const InterfaceInfo& i) {
  return i.storage != StorageProtocol::None || i.interface_class == 0x08 || i.uas_capable;
}

const UsbDeviceInfo& usb(const Topology& t, Vertex v) {
  return t[v].as<UsbDeviceInfo>();
}

void collect_blocks(const Topology& t, Vertex v, std::vector<Vertex>& out) {
  for (Vertex c : children(t, v)) {
    if (t[c].kind == NodeKind::Block)
      out.push_back(c);
    else if (t[c].kind == NodeKind::ScsiDevice || t[c].kind == NodeKind::Interface)
      collect_blocks(t, c, out);
  }
}

std::vector<Drive> find_drives(const Topology& t) {
  std::vector<Drive> out;
  for (Vertex v : of_kind(t, NodeKind::Device)) {
    Drive d{v, {}, {}};
    for (Vertex c : children(t, v)) {
      const auto* i = t[c].get_if<InterfaceInfo>();
      if (!i || !is_storage(*i)) continue;
      d.ifaces.push_back(c);
      collect_blocks(t, c, d.blocks);
    }
    if (!d.ifaces.empty()) out.push_back(std::move(d));
  }
  return out;
}

/// Block device names first (what users know), then the USB device's kernel name.
std::vector<std::string> drive_names(const Topology& t, const Drive& d) {
  std::vector<std::string> out;
  for (Vertex b : d.blocks) out.push_back(t[b].as<BlockInfo>().name);
  out.push_back(usb(t, d.dev).name);
  return out;
}

std::string hex4(std::uint16_t v) {
  return fmt::format("{:04x}", v);
}

std::string usb_ids(const UsbDeviceInfo& d) {
  if (!d.vendor_id || !d.product_id) return {};
  return hex4(*d.vendor_id) + ":" + hex4(*d.product_id);
}

/// Descriptor strings come padded ("USB2.0 Hub             ", " USB  SanDisk 3.2Gen1"): trim, single spaces.
std::string tidy(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == ' ' || ch == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += ch;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

/// "sdc (Samsung Portable SSD T7, 04e8:4001)" — how messages name a drive.
std::string drive_label(const Topology& t, const Drive& d) {
  const auto& u = usb(t, d.dev);
  std::string who = tidy(u.product ? *u.product : u.model_name);
  const std::string maker = u.manufacturer ? tidy(*u.manufacturer) : std::string();
  if (!maker.empty() && who.find(maker) == std::string::npos) who = who.empty() ? maker : maker + " " + who;
  const std::string ids = usb_ids(u);
  if (!ids.empty()) who = who.empty() ? ids : who + ", " + ids;
  const std::string name = d.blocks.empty() ? u.name : t[d.blocks.front()].as<BlockInfo>().name;
  return who.empty() ? name : name + " (" + who + ")";
}

/// "480 Mb/s", "5 Gb/s", "12 Mb/s".
std::string rate(UsbSpeed s) {
  const double mbps = nominal_mbps(s);
  if (mbps >= 1000) return fmt::format("{:g} Gb/s", mbps / 1000);
  return fmt::format("{:g} Mb/s", mbps);
}

std::string sysfs_speed(std::optional<UsbSpeed> s) {
  return s ? std::string(to_sysfs_string(*s)) : std::string("unknown");
}

/// The kernel's own spelling of a PCIe link speed ("2.5 GT/s PCIe", "8.0 GT/s PCIe").
std::string sysfs_gts(double gts) {
  return fmt::format("{:.1f} GT/s PCIe", gts);
}

std::string port_name(const Topology& t, Vertex p) {
  return t[p].as<PortInfo>().name;
}

std::string peer_name(const Topology& t, const PortInfo& p) {
  if (!p.peer) return "(none)";
  if (auto v = t.find(*p.peer); v && t[*v].kind == NodeKind::Port) return port_name(t, *v);
  return *p.peer;
}

std::string join(const std::vector<std::string>& v, std::string_view sep = ", ") {
  return fmt::format("{}", fmt::join(v, sep));
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

std::string controller_label(const ControllerInfo& c) {
  std::string out = fmt::format("{} controller {}", to_string(c.kind), c.bdf);
  if (!c.model_name.empty()) out += " (" + c.model_name + ")";
  return out;
}

std::string location_text(const PhysicalLocation& l) {
  std::vector<std::string> parts;
  if (l.panel) parts.push_back(*l.panel + " panel");
  std::string pos;
  if (l.vertical_position) pos = *l.vertical_position;
  if (l.horizontal_position) pos += (pos.empty() ? "" : " ") + *l.horizontal_position;
  if (!pos.empty()) parts.push_back(pos);
  return join(parts);
}

/// "usb1-port3 (USB3 side usb2-port3, back panel, upper left)".
std::string connector_text(const Topology& t, const Connector& c) {
  std::vector<std::string> extra;
  if (c.usb3_port && c.usb2_port) extra.push_back("USB3 side " + port_name(t, *c.usb3_port));
  for (const auto& side : {c.usb3_port, c.usb2_port}) {
    if (!side) continue;
    if (const auto& loc = t[*side].as<PortInfo>().physical_location) {
      if (auto s = location_text(*loc); !s.empty()) {
        extra.push_back(s);
        break;
      }
    }
  }
  return extra.empty() ? c.id : c.id + " (" + join(extra) + ")";
}

bool not_used(const Topology& t, std::optional<Vertex> port) {
  if (!port) return false;
  const auto& ct = t[*port].as<PortInfo>().connect_type;
  return ct && *ct == "not used";
}

/// Free connectors with a SuperSpeed side fast enough for `need`, on controller `ctrl` (or on any other
/// controller when `other_controllers`).
std::vector<std::string> free_fast_connectors(const Topology& t, Vertex ctrl, UsbSpeed need,
                                              bool other_controllers) {
  std::vector<std::string> out;
  // Connectors of the computer itself first, then those of external hubs (one more link to share).
  std::vector<const Connector*> order;
  for (const auto& c : t.connectors())
    if (t[c.hub].kind == NodeKind::RootHub) order.push_back(&c);
  for (const auto& c : t.connectors())
    if (t[c.hub].kind != NodeKind::RootHub) order.push_back(&c);
  for (const Connector* cp : order) {
    const Connector& c = *cp;
    if ((c.controller == ctrl) == other_controllers) continue;
    if (!c.usb3_port || occupant(t, c)) continue;
    if (not_used(t, c.usb3_port) || not_used(t, c.usb2_port)) continue;
    const auto& p3 = t[*c.usb3_port].as<PortInfo>();
    if (p3.hub_speed && *p3.hub_speed < need) continue;
    out.push_back(connector_text(t, c));
  }
  return out;
}

/// A fix names at most three connectors ("a or b or c (2 more in the evidence)"); the evidence lists all.
std::string short_list(const std::vector<std::string>& v) {
  std::vector<std::string> head(v.begin(),
                                v.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, v.size())));
  std::string out = join(head, " or ");
  if (v.size() > 3) out += fmt::format(" ({} more in the evidence)", v.size() - 3);
  return out;
}

std::string alt_settings_text(const InterfaceInfo& i) {
  std::vector<std::string> parts;
  for (const auto& a : i.alt_settings)
    parts.push_back(fmt::format("alt {}: {:02x}/{:02x}/{:02x}", a.number, a.interface_class,
                                a.interface_subclass, a.interface_protocol));
  return join(parts, "; ");
}

Finding make(std::string id, FindingSeverity s, std::vector<std::string> devices) {
  Finding f;
  f.id = std::move(id);
  f.severity = s;
  f.devices = std::move(devices);
  return f;
}

void ev(Finding& f, std::string key, std::string value) {
  f.evidence.emplace_back(std::move(key), std::move(value));
}

void ev_device_ids(Finding& f, const UsbDeviceInfo& u) {
  if (u.vendor_id) ev(f, u.name + "/idVendor", hex4(*u.vendor_id));
  if (u.product_id) ev(f, u.name + "/idProduct", hex4(*u.product_id));
}

struct Context {
  const Topology& t;
  const DoctorConfig& config;
  const std::vector<Drive>& drives;
  std::vector<Finding>& out;
};

// ---- uas_inactive ------------------------------------------------------------------------------------

void check_uas_inactive(const Context& cx) {
  const auto quirks = cx.config.usb_storage_quirks ? parse_storage_quirks(*cx.config.usb_storage_quirks)
                                                   : std::vector<StorageQuirk>{};
  for (const auto& d : cx.drives) {
    const auto& u = usb(cx.t, d.dev);
    for (Vertex iv : d.ifaces) {
      const auto& i = cx.t[iv].as<InterfaceInfo>();
      if (!i.uas_capable || i.driver != "usb-storage") continue;
      Finding f = make("uas_inactive", FindingSeverity::Warning, drive_names(cx.t, d));
      ev_device_ids(f, u);
      ev(f, u.name + "/speed", sysfs_speed(u.speed));
      ev(f, i.name + "/driver", i.driver);
      if (!i.alt_settings.empty()) ev(f, i.name + "/descriptors (alt settings)", alt_settings_text(i));
      const auto ctrl = controller_of(cx.t, d.dev);
      const ControllerInfo* ci = ctrl ? cx.t[*ctrl].get_if<ControllerInfo>() : nullptr;
      if (ci) ev(f, ci->bdf + "/driver", ci->driver.empty() ? "(none)" : ci->driver);

      const std::string who = drive_label(cx.t, d);
      std::string why, fix;
      const StorageQuirk* q = nullptr;
      for (const auto& e : quirks)
        if (u.vendor_id == e.vendor_id && u.product_id == e.product_id && e.ignore_uas()) q = &e;
      // The scanner's own reading, unless it only repeats the quirk shown below.
      if (i.uas_blocked_reason && !q) ev(f, "scanner: uas blocked because", *i.uas_blocked_reason);
      const bool asmedia_rule = u.vendor_id == 0x174c && (u.product_id == 0x55aa || u.product_id == 0x5106) &&
                                u.speed && *u.speed < UsbSpeed::Super;
      const bool companion = ci && (ci->kind == HcdKind::Ohci || ci->kind == HcdKind::Uhci);
      if (q) {
        // A deliberate setting: somebody (the distribution or the admin) disabled UAS for this bridge.
        f.severity = FindingSeverity::Info;
        ev(f, "usb_storage.quirks", *cx.config.usb_storage_quirks);
        why = fmt::format("the usb-storage quirk {}:{}:{} is set for this device (flag u = IGNORE_UAS)",
                          hex4(q->vendor_id), hex4(q->product_id), q->flags);
        fix = fmt::format(
            "Only if this bridge's firmware has been updated or UAS has been tested on it: remove {}:{}:{} "
            "from the\n"
            "usb-storage.quirks option (kernel command line or /etc/modprobe.d/*.conf), then replug the "
            "drive.\n"
            "Risk: such quirks exist because the bridge misbehaves with UAS (command timeouts, resets, hangs "
            "under\n"
            "load); if that happens, put the quirk back. Keeping it costs command queueing, not correctness.",
            hex4(q->vendor_id), hex4(q->product_id), q->flags);
      } else if (asmedia_rule) {
        f.severity = FindingSeverity::Info;
        why = fmt::format(
            "the kernel ignores UAS for ASMedia {} bridges below SuperSpeed (built-in rule in the uas "
            "driver), and this one runs at {}",
            usb_ids(u), rate(*u.speed));
        fix = "Connect it to a USB 3 (SuperSpeed) connector; UAS is then used automatically.";
      } else if (companion) {
        why = fmt::format(
            "it is on the {} companion controller {}, whose driver has no scatter-gather support, "
            "which the uas driver requires",
            to_string(ci->kind), ci->bdf);
        fix = "Connect it to a port served by an xHCI (USB 3) controller.";
      } else if (cx.config.uas_driver_loaded && !*cx.config.uas_driver_loaded) {
        ev(f, "/sys/module/uas", "(absent)");
        why = "the uas driver is not loaded (not built for this kernel, or blacklisted)";
        fix =
            "Load it (sudo modprobe uas) and check /etc/modprobe.d for 'blacklist uas'; then replug the "
            "drive.";
      } else if (i.uas_blocked_reason) {
        why = *i.uas_blocked_reason;
        fix = "Remove the cause named above and replug the drive.";
      } else {
        why =
            "no reason is visible in sysfs: most likely a quirk compiled into the kernel for this bridge "
            "(drivers/usb/storage/unusual_uas.h), or a controller without streams support";
        fix =
            "Check the kernel log right after plugging it in: `sudo dmesg | grep -iE 'uas|usb-storage'` "
            "says\n"
            "'UAS is ignored for this device' (kernel quirk: the bridge is known to misbehave with UAS, "
            "leave it)\n"
            "or 'does not support streams' (use a port on another controller).";
      }
      f.message = fmt::format(
          "{} offers UAS (interface {} has a 08/06/62 alternate setting) but is driven by usb-storage "
          "(Bulk-Only "
          "Transport): {}. Bulk-Only runs one command at a time, which costs throughput with small or mixed "
          "I/O "
          "and on SSDs.",
          who, i.name, why);
      f.fix = std::move(fix);
      cx.out.push_back(std::move(f));
    }
  }
}

// ---- speed_below_capability --------------------------------------------------------------------------

void check_speed_below_capability(const Context& cx) {
  for (const auto& d : cx.drives) {
    const auto& u = usb(cx.t, d.dev);
    if (!u.speed || !u.capable_speed || *u.speed == UsbSpeed::Unknown) continue;
    const UsbSpeed speed = *u.speed, cap = *u.capable_speed;
    if (!is_superspeed(cap) || speed >= cap) continue;
    // bcdUSB 3.1/3.2 alone does not prove 10 Gb/s (Gen 1 devices report it too): only the BOS does.
    if (!u.capable_from_bos && is_superspeed(speed)) continue;

    Finding f = make("speed_below_capability",
                     is_superspeed(speed) ? FindingSeverity::Warning : FindingSeverity::Problem,
                     drive_names(cx.t, d));
    ev(f, u.name + "/speed", sysfs_speed(u.speed));
    ev(f, u.name + (u.capable_from_bos ? "/bos_descriptors (capable speed)" : "/version (capable speed)"),
       std::string(to_sysfs_string(cap)));
    if (!u.version.empty()) ev(f, u.name + "/version", u.version);

    std::string cause;
    const auto port = parent(cx.t, d.dev);
    const PortInfo* pi = port ? cx.t[*port].get_if<PortInfo>() : nullptr;
    std::optional<Connector> conn;
    if (pi) {
      ev(f, pi->name + "/peer", peer_name(cx.t, *pi));
      if (auto ci = connector_of(cx.t, *port)) conn = cx.t.connectors()[*ci];
    }
    std::optional<Vertex> slow_hub;
    for (Vertex h : hub_chain(cx.t, d.dev)) {
      const auto& hu = usb(cx.t, h);
      if (hu.speed && *hu.speed < cap) {
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
      if (!ru || cx.t[rh].kind != NodeKind::RootHub || !ru->speed) continue;
      if (!root_speed || *ru->speed > *root_speed) {
        root = rh;
        root_speed = ru->speed;
      }
    }
    if (root) ev(f, usb(cx.t, *root).name + "/speed", sysfs_speed(root_speed));
    std::string fix_extra;
    if (slow_hub) {
      const auto& hu = usb(cx.t, *slow_hub);
      ev(f, hu.name + "/speed", sysfs_speed(hu.speed));
      cause = fmt::format("it is behind hub {} whose own link runs at {}", hu.name, rate(*hu.speed));
      fix_extra = "or connect it directly instead of through hub " + hu.name;
    } else if (root_speed && *root_speed < cap) {
      cause = is_superspeed(*root_speed)
                  ? fmt::format(
                        "its controller's SuperSpeed root hub runs at most {} (a USB 3.2 Gen 1 controller)",
                        rate(*root_speed))
                  : "its controller has no SuperSpeed root hub (USB 2.0 only)";
    } else if (!is_superspeed(speed) && conn && (!conn->usb3_port || not_used(cx.t, conn->usb3_port))) {
      if (conn->usb3_port) ev(f, port_name(cx.t, *conn->usb3_port) + "/connect_type", "not used");
      cause =
          conn->usb3_port
              ? fmt::format("connector {} is USB 2.0 only (the firmware marks its USB3 peer {} as not used)",
                            conn->id, port_name(cx.t, *conn->usb3_port))
              : fmt::format("connector {} is USB 2.0 only (its port has no USB3 peer)", conn->id);
    } else if (!is_superspeed(speed) && conn && conn->usb3_port) {
      cause = fmt::format(
          "connector {} has a USB3 side ({}) but the device connected on its USB 2.0 side: a USB 2.0 cable, "
          "extension or adapter, a dirty or damaged connector, or SuperSpeed link training failed (the "
          "kernel log "
          "then says 'Cannot enable. Maybe the USB cable is bad?')",
          conn->id, port_name(cx.t, *conn->usb3_port));
      fix_extra = "or use a short USB 3 cable directly into this connector";
    } else {
      cause = fmt::format(
          "port and controller support {} but the link trained at {}: a cable or adapter rated for "
          "{} only, or a connector problem",
          rate(cap), rate(speed), rate(speed));
      fix_extra = "or use a cable rated for " + rate(cap);
    }
    f.message = fmt::format("{} can run at {} but negotiated {}: {}.", drive_label(cx.t, d), rate(cap),
                            rate(speed), cause);

    std::vector<std::string> same =
        ctrl ? free_fast_connectors(cx.t, *ctrl, cap, false) : std::vector<std::string>{};
    std::vector<std::string> other =
        ctrl ? free_fast_connectors(cx.t, *ctrl, cap, true) : std::vector<std::string>{};
    if (!same.empty()) {
      ev(f, "free connectors at full speed (same controller)", join(same));
      f.fix = fmt::format("Move it to {} on the same controller (these have a {} side){}.", short_list(same),
                          rate(cap), fix_extra.empty() ? "" : ", " + fix_extra);
    } else if (!other.empty()) {
      ev(f, "free connectors at full speed (other controllers)", join(other));
      f.fix = fmt::format(
          "No free connector of this controller runs at {}; move it to {} on another controller{}.",
          rate(cap), short_list(other), fix_extra.empty() ? "" : ", " + fix_extra);
    } else {
      f.fix = fmt::format("No free connector on this machine runs at {}{}; a {} card or hub would.",
                          rate(cap), fix_extra.empty() ? "" : " (" + fix_extra + ")", rate(cap));
    }
    cx.out.push_back(std::move(f));
  }
}

// ---- slow_hub_uplink ---------------------------------------------------------------------------------

void check_slow_hub_uplink(const Context& cx) {
  // For every hub: all drives below it, and the drives for which it is the root-most hub slower than the
  // drive.
  auto want_of = [&](const Drive& d) {
    const auto& u = usb(cx.t, d.dev);
    return u.capable_speed ? *u.capable_speed : u.speed.value_or(UsbSpeed::Unknown);
  };
  std::map<Vertex, std::vector<const Drive*>> all, slowed_at;
  std::map<Vertex, std::optional<Vertex>> parent_hub;
  for (const auto& d : cx.drives) {
    const auto chain = hub_chain(cx.t, d.dev);
    bool slow_found = false;
    for (std::size_t k = 0; k < chain.size(); ++k) {
      const Vertex h = chain[k];
      all[h].push_back(&d);
      parent_hub[h] = k ? std::optional<Vertex>(chain[k - 1]) : std::nullopt;
      const auto hs = usb(cx.t, h).speed;
      if (!slow_found && hs && *hs < want_of(d)) {
        slowed_at[h].push_back(&d);
        slow_found = true;
      }
    }
  }
  // "Several drives behind one hub" is reported at the deepest hub that carries exactly that set of drives
  // (the external hub, not the rate-matching hub above it that has nothing else).
  std::set<Vertex> same_as_child;
  for (const auto& [h, ds] : all)
    if (auto p = parent_hub.at(h); p && all.at(*p).size() == ds.size()) same_as_child.insert(*p);

  for (const auto& [h, ds_all] : all) {  // std::map over vertex numbers: depth-first topology order
    const auto& slowed = slowed_at[h];
    const bool several = ds_all.size() >= 2 && !same_as_child.contains(h);
    if (slowed.empty() && !several) continue;
    const auto& ds = several ? ds_all : slowed;
    const auto& hu = usb(cx.t, h);
    std::vector<std::string> devices;
    for (const Drive* d : ds)
      for (auto& n : drive_names(cx.t, *d)) add_unique(devices, n);
    devices.push_back(hu.name);
    Finding f =
        make("slow_hub_uplink", slowed.empty() ? FindingSeverity::Info : FindingSeverity::Warning, devices);
    ev(f, hu.name + "/speed", sysfs_speed(hu.speed));
    if (!hu.version.empty()) ev(f, hu.name + "/version", hu.version);
    if (const auto ids = usb_ids(hu); !ids.empty()) ev(f, hu.name + " idVendor:idProduct", ids);
    for (const Drive* d : ds) {
      const auto& u = usb(cx.t, d->dev);
      ev(f, u.name + "/speed", sysfs_speed(u.speed));
      if (u.capable_speed) ev(f, u.name + " capable speed", std::string(to_sysfs_string(*u.capable_speed)));
    }
    const std::string hub_rate = hu.speed ? rate(*hu.speed) : "an unknown speed";
    std::string hub_desc = "hub " + hu.name;
    if (hu.product) hub_desc += " (" + tidy(*hu.product) + ")";
    std::vector<std::string> parts;
    if (!slowed.empty()) {
      std::vector<std::string> names;
      for (const Drive* d : slowed) names.push_back(drive_label(cx.t, *d));
      const UsbSpeed want = want_of(*slowed.front());
      std::string why;
      if (hu.capable_speed && hu.speed && *hu.capable_speed > *hu.speed && !hu.hub_peer)
        why = fmt::format(" although the hub itself can do {} (its USB3 half did not connect: cable or port)",
                          rate(*hu.capable_speed));
      parts.push_back(fmt::format("{} is connected upstream at {}{}, slower than {} behind it can run ({})",
                                  hub_desc, hub_rate, why, join(names), rate(want)));
    }
    if (several)
      parts.push_back(
          fmt::format("{} drives share this hub's {} uplink and split it when they are busy at once",
                      ds.size(), hub_rate));
    f.message = join(parts, "; ") + ".";
    f.fix = slowed.empty()
                ? "Fine for one drive at a time; for concurrent backups put the drives on separate root-hub "
                  "connectors (`usbsat plan` suggests where)."
                : fmt::format(
                      "Connect the drive(s) directly to a {} connector of the computer, or replace the hub "
                      "with one whose uplink is at least as fast as the drives.",
                      rate(want_of(*slowed.front())));
    cx.out.push_back(std::move(f));
  }
}

// ---- shared_bandwidth --------------------------------------------------------------------------------

void check_shared_bandwidth(const Context& cx) {
  if (!cx.config.predictor) return;
  const auto shares = cx.config.predictor->predict(cx.t);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const DriveShare*>> groups;
  for (const auto& s : shares) {
    if (!groups.contains(s.bottleneck)) order.push_back(s.bottleneck);
    groups[s.bottleneck].push_back(&s);
  }
  auto names_of = [&](Vertex dev) {
    for (const auto& d : cx.drives)
      if (d.dev == dev) return drive_names(cx.t, d);
    const auto* u = cx.t[dev].get_if<UsbDeviceInfo>();
    return std::vector<std::string>{u ? u->name : cx.t[dev].syspath()};
  };
  for (const auto& key : order) {
    const auto& g = groups[key];
    double demand = 0;
    std::size_t slowed = 0;
    for (const auto* s : g) {
      demand += s->demand_mbps;
      if (s->predicted_mbps < cx.config.shared_threshold * s->demand_mbps) ++slowed;
    }
    if (g.size() < 2 || slowed == 0) continue;
    std::vector<std::string> devices, shares_txt;
    Finding f = make("shared_bandwidth", FindingSeverity::Warning, {});
    ev(f, "bottleneck", g.front()->bottleneck_label);
    ev(f, "bottleneck capacity (MB/s)", fmt::format("{:.0f}", g.front()->bottleneck_capacity_mbps));
    for (const auto* s : g) {
      const auto names = names_of(s->drive);
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
        g.size(), g.front()->bottleneck_label, g.front()->bottleneck_capacity_mbps, demand, join(shares_txt));
    // Free connectors whose path does not cross the bottleneck.
    std::vector<std::string> avoid;
    if (const auto bv = cx.t.find_by_name(g.front()->bottleneck_node)) {
      for (const auto& c : cx.t.connectors()) {
        if (!c.usb3_port || occupant(cx.t, c) || not_used(cx.t, c.usb3_port) || not_used(cx.t, c.usb2_port))
          continue;
        const auto up = ancestors(cx.t, *c.usb3_port);
        if (*c.usb3_port == *bv || std::find(up.begin(), up.end(), *bv) != up.end()) continue;
        avoid.push_back(connector_text(cx.t, c));
      }
    }
    if (!avoid.empty()) ev(f, "free connectors not behind the bottleneck", join(avoid));
    f.fix = avoid.empty()
                ? fmt::format(
                      "No free connector avoids the {}; to run these drives at full speed together, use a "
                      "controller on another PCIe slot/lane or fewer drives at once. `usbsat plan` computes "
                      "the best placement.",
                      g.front()->bottleneck_label)
                : fmt::format(
                      "Move one or more of them to a connector that does not go through the {}: {}. "
                      "`usbsat plan` computes the best placement.",
                      g.front()->bottleneck_label, short_list(avoid));
    cx.out.push_back(std::move(f));
  }
}

// ---- pcie_link_degraded ------------------------------------------------------------------------------

struct PciFn {
  std::string bdf;
  std::string model;
  PcieLink link;
};

std::optional<double> min_opt(std::optional<double> a, std::optional<double> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}
std::optional<unsigned> min_opt(std::optional<unsigned> a, std::optional<unsigned> b) {
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

void check_pcie_link_degraded(const Context& cx) {
  std::set<std::pair<std::string, std::string>> reported;
  for (Vertex c : cx.t.controllers()) {
    const auto& ci = cx.t[c].as<ControllerInfo>();
    // The path, controller first. Along it, functions pair up on one physical link: the controller's
    // upstream link is its parent port's downstream link, and so on up (a switch's upstream port and the
    // root port above it). Both ends of a link report the same current speed and width.
    std::vector<PciFn> path;
    if (!ci.link.empty()) path.push_back({ci.bdf, ci.model_name, ci.link});
    for (Vertex h : pcie_uplink(cx.t, c)) {
      const auto& hi = cx.t[h].as<PciHopInfo>();
      path.push_back({hi.bdf, hi.model_name, hi.link});
    }
    bool storage_below = false;
    std::vector<std::string> drive_devs;
    for (const auto& d : cx.drives)
      if (controller_of(cx.t, d.dev) == c) {
        storage_below = true;
        for (auto& n : drive_names(cx.t, d)) add_unique(drive_devs, n);
      }
    for (std::size_t i = 0; i < path.size();) {
      const PciFn& lo = path[i];
      const PciFn* hi = nullptr;
      if (i + 1 < path.size() && path[i + 1].link.speed_gts == lo.link.speed_gts &&
          path[i + 1].link.width == lo.link.width)
        hi = &path[i + 1];
      i += hi ? 2 : 1;
      if (!lo.link.speed_gts || !lo.link.width) continue;
      const auto max_speed = min_opt(lo.link.max_speed_gts, hi ? hi->link.max_speed_gts : std::nullopt);
      const auto max_width = min_opt(lo.link.max_width, hi ? hi->link.max_width : std::nullopt);
      const bool slow = max_speed && *lo.link.speed_gts < *max_speed;
      const bool narrow = max_width && *lo.link.width < *max_width;
      if (!slow && !narrow) continue;
      if (!reported.emplace(lo.bdf, hi ? hi->bdf : "").second) continue;
      std::vector<std::string> devices{ci.bdf};
      if (lo.bdf != ci.bdf) devices.push_back(lo.bdf);
      if (hi) devices.push_back(hi->bdf);
      for (const auto& n : drive_devs) devices.push_back(n);
      Finding f = make("pcie_link_degraded", storage_below ? FindingSeverity::Warning : FindingSeverity::Info,
                       devices);
      for (const PciFn* fn : {&lo, hi}) {
        if (!fn) continue;
        if (fn->link.speed_gts) ev(f, fn->bdf + "/current_link_speed", sysfs_gts(*fn->link.speed_gts));
        if (fn->link.max_speed_gts) ev(f, fn->bdf + "/max_link_speed", sysfs_gts(*fn->link.max_speed_gts));
        if (fn->link.width) ev(f, fn->bdf + "/current_link_width", std::to_string(*fn->link.width));
        if (fn->link.max_width) ev(f, fn->bdf + "/max_link_width", std::to_string(*fn->link.max_width));
      }
      const double now = pcie_mbytes(*lo.link.speed_gts, *lo.link.width);
      const double could =
          pcie_mbytes(max_speed.value_or(*lo.link.speed_gts), max_width.value_or(*lo.link.width));
      std::string what;
      if (lo.bdf == ci.bdf)
        what = hi ? fmt::format("The PCIe link of {} to {}", controller_label(ci), hi->bdf)
                  : fmt::format("The PCIe link of {}", controller_label(ci));
      else
        what = fmt::format("The PCIe link between {} and {}, above {},",
                           hi ? hi->bdf : std::string("its parent"), lo.bdf, controller_label(ci));
      f.message = fmt::format(
          "{} runs at {:g} GT/s x{} although both ends support {:g} GT/s x{}: about {:.0f} MB/s instead "
          "of {:.0f} MB/s for every USB device on this controller{}. Some links drop their speed while idle; "
          "if this "
          "persists while a drive is busy, the link trained below its capability.",
          what, *lo.link.speed_gts, *lo.link.width, max_speed.value_or(*lo.link.speed_gts),
          max_width.value_or(*lo.link.width), now, could, storage_below ? " (USB storage is attached)" : "");
      f.fix = fmt::format(
          "Reseat the card, avoid risers/extensions, use a slot wired for x{} and check the BIOS PCIe speed "
          "setting "
          "(Auto rather than a forced generation). Confirm with:\n"
          "sudo lspci -vv -s {} | grep -E 'LnkCap|LnkSta'",
          max_width.value_or(*lo.link.width), lo.bdf);
      cx.out.push_back(std::move(f));
    }
  }
}

// ---- max_sectors_below_hw ----------------------------------------------------------------------------

void check_max_sectors(const Context& cx) {
  for (const auto& d : cx.drives) {
    const auto& u = usb(cx.t, d.dev);
    for (Vertex bv : d.blocks) {
      const auto& b = cx.t[bv].as<BlockInfo>();
      if (!b.max_sectors_kb || !b.max_hw_sectors_kb) continue;
      const unsigned target = std::min(*b.max_hw_sectors_kb, cx.config.max_sectors_target_kb);
      if (*b.max_sectors_kb >= target) continue;
      Finding f = make("max_sectors_below_hw", FindingSeverity::Info, {b.name, u.name});
      ev(f, b.name + "/queue/max_sectors_kb", std::to_string(*b.max_sectors_kb));
      ev(f, b.name + "/queue/max_hw_sectors_kb", std::to_string(*b.max_hw_sectors_kb));
      const std::string attr = "/sys/block/" + b.name + "/queue/max_sectors_kb";
      f.message = fmt::format(
          "{} sends at most {} KiB per request although the controller and bridge accept {} KiB. Raising the "
          "limit "
          "to {} KiB lets large sequential reads and writes go out in {}x fewer commands, which mostly helps "
          "Bulk-Only (usb-storage) drives that handle one command at a time; it is Linux's equivalent of the "
          "Windows \"Turbo mode\" of USB drive tools.",
          drive_label(cx.t, d), *b.max_sectors_kb, *b.max_hw_sectors_kb, target,
          std::max(1u, target / std::max(1u, *b.max_sectors_kb)));
      std::string rule;
      if (u.vendor_id && u.product_id)
        rule = fmt::format(
            "\nTo keep it across replugs, add a udev rule (/etc/udev/rules.d/90-max-sectors.rules):\n"
            "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{{DEVTYPE}}==\"disk\", "
            "ATTRS{{idVendor}}==\"{}\", "
            "ATTRS{{idProduct}}==\"{}\", ATTR{{queue/max_sectors_kb}}=\"{}\"",
            hex4(*u.vendor_id), hex4(*u.product_id), target);
      f.fix = fmt::format(
          "echo {} | sudo tee {}\n"
          "This lasts until the drive is unplugged. If the drive then resets or stalls under load, its "
          "bridge cannot "
          "handle large transfers: go back with\n"
          "echo {} | sudo tee {}{}",
          target, attr, *b.max_sectors_kb, attr, rule);
      cx.out.push_back(std::move(f));
    }
  }
}

// ---- autosuspend -------------------------------------------------------------------------------------

void check_autosuspend(const Context& cx) {
  for (const auto& d : cx.drives) {
    const auto& u = usb(cx.t, d.dev);
    if (!u.power_control || *u.power_control != "auto") continue;
    Finding f = make("autosuspend", FindingSeverity::Info, drive_names(cx.t, d));
    ev(f, u.name + "/power/control", *u.power_control);
    f.message = fmt::format(
        "{} may be runtime-suspended by USB autosuspend when idle. Waking it adds latency (a spinning disk "
        "may spin "
        "down), and some bridges reset or drop off the bus on resume, which interrupts long backups.",
        drive_label(cx.t, d));
    std::string rule;
    if (u.vendor_id && u.product_id)
      rule = fmt::format(
          "\nTo keep it: /etc/udev/rules.d/90-usb-storage-power.rules with\n"
          "ACTION==\"add\", SUBSYSTEM==\"usb\", ATTR{{idVendor}}==\"{}\", ATTR{{idProduct}}==\"{}\", "
          "TEST==\"power/control\", ATTR{{power/control}}=\"on\"",
          hex4(*u.vendor_id), hex4(*u.product_id));
    f.fix = fmt::format("echo on | sudo tee /sys/bus/usb/devices/{}/power/control{}", u.name, rule);
    cx.out.push_back(std::move(f));
  }
}

// ---- overcurrent -------------------------------------------------------------------------------------

void check_overcurrent(const Context& cx) {
  for (const auto& c : cx.t.connectors()) {
    std::vector<Vertex> hit;
    for (const auto& side : {c.usb2_port, c.usb3_port})
      if (side) {
        const auto& p = cx.t[*side].as<PortInfo>();
        if (p.over_current_count && *p.over_current_count > 0) hit.push_back(*side);
      }
    if (hit.empty()) continue;
    std::vector<std::string> devices;
    for (Vertex p : hit) devices.push_back(port_name(cx.t, p));
    std::string occupant_txt = "nothing is plugged in now";
    if (auto occ = occupant(cx.t, c)) {
      bool found = false;
      for (const auto& d : cx.drives)
        if (d.dev == *occ) {
          for (auto& n : drive_names(cx.t, d)) devices.push_back(n);
          occupant_txt = drive_label(cx.t, d) + " is plugged in now";
          found = true;
        }
      if (!found) {
        devices.push_back(usb(cx.t, *occ).name);
        occupant_txt = usb(cx.t, *occ).name + " is plugged in now";
      }
    }
    Finding f = make("overcurrent", FindingSeverity::Problem, devices);
    unsigned total = 0;
    for (Vertex p : hit) {
      const auto& pi = cx.t[p].as<PortInfo>();
      total += *pi.over_current_count;
      ev(f, pi.name + "/over_current_count", std::to_string(*pi.over_current_count));
    }
    f.message = fmt::format(
        "Connector {} reported {} over-current event{} since boot ({}): a device drew more current than the "
        "port "
        "supplies, or something is shorted, and the port was switched off. A drive on it can vanish in the "
        "middle "
        "of a write.",
        connector_text(cx.t, c), total, total == 1 ? "" : "s", occupant_txt);
    f.fix =
        "Power bus-powered drives from a powered hub or their own supply (or a Y cable), check the cable and "
        "the "
        "connector for damage, and if it happens with nothing attached, stop using this connector.";
    cx.out.push_back(std::move(f));
  }
}

// ---- legacy_companion --------------------------------------------------------------------------------

void check_legacy_companion(const Context& cx) {
  for (const auto& d : cx.drives) {
    const auto ctrl = controller_of(cx.t, d.dev);
    if (!ctrl) continue;
    const auto& ci = cx.t[*ctrl].as<ControllerInfo>();
    if (ci.kind != HcdKind::Ohci && ci.kind != HcdKind::Uhci) continue;
    const auto& u = usb(cx.t, d.dev);
    Finding f = make("legacy_companion", FindingSeverity::Problem, drive_names(cx.t, d));
    ev(f, u.name + "/speed", sysfs_speed(u.speed));
    if (!u.version.empty()) ev(f, u.name + "/version", u.version);
    ev(f, ci.bdf + "/driver", ci.driver.empty() ? "(none)" : ci.driver);
    std::vector<std::string> ehci_state;
    for (const auto& comp : ci.companions) {
      const auto v = cx.t.find_by_name(comp);
      const ControllerInfo* e = v ? cx.t[*v].get_if<ControllerInfo>() : nullptr;
      ev(f, comp + "/driver", e ? (e->driver.empty() ? "(none)" : e->driver) : "(not found)");
      ehci_state.push_back(e && !e->driver.empty() ? comp + " is bound to " + e->driver
                                                   : comp + " has no driver bound");
    }
    const bool usb2_device = u.bcd_usb && *u.bcd_usb >= 0x0200;
    std::string why, fix;
    if (usb2_device) {
      why = fmt::format(
          "the device is USB {} and could run at 480 Mb/s, but it was handed to the companion "
          "controller{}",
          u.version.empty() ? "2.0" : u.version.substr(u.version.find_first_not_of(' ')),
          ehci_state.empty() ? " (the EHCI controller is not driving this port)"
                             : " (" + join(ehci_state) + ")");
      fix =
          "Make sure the EHCI driver is loaded and bound (sudo modprobe ehci-pci; it must load before "
          "ohci/uhci), "
          "then replug; if it still falls back to 12 Mb/s, try another cable or connector. Better: use an "
          "xHCI "
          "(USB 3) port.";
    } else {
      why = "the device itself is USB 1.1 (full speed) only";
      fix =
          "Nothing on this machine makes a USB 1.1 device faster; use it only for small files or replace it.";
    }
    f.message = fmt::format("{} runs at {} on {}, about 1 MB/s at best: {}.", drive_label(cx.t, d),
                            u.speed ? rate(*u.speed) : std::string("12 Mb/s"), controller_label(ci), why);
    f.fix = std::move(fix);
    cx.out.push_back(std::move(f));
  }
}

}  // namespace

DoctorResult diagnose(const Topology& t, const DoctorConfig& config) {
  // Each check is independent and appends in topology order; the table order is the presentation order
  // within one severity.
  const auto drives = find_drives(t);
  DoctorResult r;
  r.controllers_checked = t.controllers().size();
  r.drives_checked = drives.size();
  const Context cx{t, config, drives, r.findings};
  check_legacy_companion(cx);
  check_overcurrent(cx);
  check_speed_below_capability(cx);
  check_uas_inactive(cx);
  check_slow_hub_uplink(cx);
  check_shared_bandwidth(cx);
  check_pcie_link_degraded(cx);
  check_max_sectors(cx);
  check_autosuspend(cx);
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return r;
}


}  // namespace usbsat::analysis::doctor
