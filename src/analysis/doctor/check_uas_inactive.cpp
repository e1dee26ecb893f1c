// uas_inactive: a UAS-capable bridge driven by usb-storage (Bulk-Only), and why.
#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/base/text.hpp"
#include "topology/model/sysfs_parse.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {
namespace {

using namespace topology;

/// "alt 0: 08/06/50; alt 1: 08/06/62": the interface's alternate settings as evidence.
std::string alt_settings_text(const InterfaceInfo& i) {
  std::vector<std::string> parts;
  for (const auto& a : i.alt_settings)
    parts.push_back(fmt::format("alt {}: {:02x}/{:02x}/{:02x}", a.number, a.interface_class,
                                a.interface_subclass, a.interface_protocol));
  return topology::join(parts, "; ");
}

/// "152d:0578:u": a usb-storage quirk entry as the module parameter spells it.
std::string quirk_text(const StorageQuirk& q) {
  return format_vid_pid(q.vendor_id, q.product_id) + ":" + q.flags;
}

/// Step 1: the device's ids and speed, the interface's driver and alternate settings, the controller's driver
/// as evidence; returns the controller (nullptr when not scanned).
const ControllerInfo* add_device_evidence(const Context& cx, const StorageDevice& d, const InterfaceInfo& i,
                                          Finding& f) {
  const auto& u = usb(cx.t, d.dev);
  if (u.vendor_id) ev(f, u.name + "/idVendor", format_hex4(*u.vendor_id));
  if (u.product_id) ev(f, u.name + "/idProduct", format_hex4(*u.product_id));
  ev(f, u.name + "/speed", topology::sysfs_speed_text(u.speed));
  ev(f, i.name + "/driver", i.driver);
  if (!i.alt_settings.empty()) ev(f, i.name + "/descriptors (alt settings)", alt_settings_text(i));
  const auto ctrl = controller_of(cx.t, d.dev);
  const ControllerInfo* ci = ctrl ? cx.t[*ctrl].get_if<ControllerInfo>() : nullptr;
  if (ci) ev(f, ci->bdf + "/driver", ci->driver.empty() ? "(none)" : ci->driver);
  return ci;
}

/// Why UAS is not used and what to do, with the finding's severity.
struct Reason {
  FindingSeverity severity = FindingSeverity::Warning;
  std::string why, fix;
};

/// Step 2: the reason, from the most to the least certain: a quirk `q` for this device, the kernel's ASMedia
/// rule, a companion controller, no uas driver, the scanner's reason, else none visible. Adds its evidence.
Reason reason(const Context& cx, const UsbDeviceInfo& u, const InterfaceInfo& i, const ControllerInfo* ci,
              const StorageQuirk* q, Finding& f) {
  // The kernel's rule needs a known speed: an unknown one is no evidence of "below SuperSpeed".
  const bool asmedia_rule = u.vendor_id == 0x174c && (u.product_id == 0x55aa || u.product_id == 0x5106) &&
                            plausible_speed(u.speed) && *u.speed < UsbSpeed::Super;
  const bool companion = ci && (ci->kind == HcdKind::Ohci || ci->kind == HcdKind::Uhci);
  if (q) {
    // A deliberate setting: somebody (the distribution or the admin) disabled UAS for this bridge.
    ev(f, "usb_storage.quirks", *cx.config.usb_storage_quirks);
    return {
        FindingSeverity::Info,
        fmt::format("the usb-storage quirk {} is set for this device (flag u = IGNORE_UAS)", quirk_text(*q)),
        fmt::format(
            "Only if this bridge's firmware has been updated or UAS has been tested on it: remove {} "
            "from the\n"
            "usb-storage.quirks option (kernel command line or /etc/modprobe.d/*.conf), then replug the "
            "drive.\n"
            "Risk: such quirks exist because the bridge misbehaves with UAS (command timeouts, resets, hangs "
            "under\n"
            "load); if that happens, put the quirk back. Keeping it costs command queueing, not correctness.",
            quirk_text(*q))};
  }
  if (asmedia_rule)
    return {FindingSeverity::Info,
            fmt::format(
                "the kernel ignores UAS for ASMedia {} bridges below SuperSpeed (built-in rule in the uas "
                "driver), and this one runs at {}",
                topology::usb_ids(u), topology::usb_rate_text(*u.speed)),
            "Connect it to a USB 3 (SuperSpeed) connector; UAS is then used automatically."};
  if (companion)
    return {
        FindingSeverity::Warning,
        fmt::format("it is on the {} companion controller {}, whose driver has no scatter-gather support, "
                    "which the uas driver requires",
                    to_string(ci->kind), ci->bdf),
        "Connect it to a port served by an xHCI (USB 3) controller."};
  if (cx.config.uas_driver_loaded && !*cx.config.uas_driver_loaded) {
    ev(f, "/sys/module/uas", "(absent)");
    return {FindingSeverity::Warning,
            "the uas driver is not loaded (not built for this kernel, or blacklisted)",
            "Load it (sudo modprobe uas) and check /etc/modprobe.d for 'blacklist uas'; then replug the "
            "drive."};
  }
  if (i.uas_blocked_reason)
    return {FindingSeverity::Warning, *i.uas_blocked_reason,
            "Remove the cause named above and replug the drive."};
  return {FindingSeverity::Warning,
          "no reason is visible in sysfs: most likely a quirk compiled into the kernel for this bridge "
          "(drivers/usb/storage/unusual_uas.h), or a controller without streams support",
          "Check the kernel log right after plugging it in: `sudo dmesg | grep -iE 'uas|usb-storage'` "
          "says\n"
          "'UAS is ignored for this device' (kernel quirk: the bridge is known to misbehave with UAS, "
          "leave it)\n"
          "or 'does not support streams' (use a port on another controller)."};
}

}  // namespace

void check_uas_inactive(const Context& cx) {
  const auto quirks = cx.config.usb_storage_quirks ? parse_storage_quirks(*cx.config.usb_storage_quirks)
                                                   : std::vector<StorageQuirk>{};
  for (const auto& d : cx.devices) {
    const auto& u = usb(cx.t, d.dev);
    for (Vertex iv : d.ifaces) {
      const auto& i = cx.t[iv].as<InterfaceInfo>();
      if (!i.uas_capable || i.driver != "usb-storage") continue;
      auto f = cx.finding(FindingSeverity::Warning, device_names(cx.t, d));
      const ControllerInfo* ci = add_device_evidence(cx, d, i, f);
      const StorageQuirk* q = nullptr;
      for (const auto& e : quirks)
        if (u.vendor_id == e.vendor_id && u.product_id == e.product_id && e.ignore_uas()) q = &e;
      // The scanner's own reading, unless it only repeats the quirk shown below.
      if (i.uas_blocked_reason && !q) ev(f, "scanner: uas blocked because", *i.uas_blocked_reason);
      auto r = reason(cx, u, i, ci, q, f);
      f.severity = r.severity;
      f.message = fmt::format(
          "{} offers UAS (interface {} has a 08/06/62 alternate setting) but is driven by usb-storage "
          "(Bulk-Only "
          "Transport): {}. Bulk-Only runs one command at a time, which costs throughput with small or mixed "
          "I/O "
          "and on SSDs.",
          device_label(cx.t, d), i.name, r.why);
      f.fix = std::move(r.fix);
      cx.out.push_back(std::move(f));
    }
  }
}

}  // namespace usbsat::analysis::doctor
