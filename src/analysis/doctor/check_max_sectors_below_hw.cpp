// max_sectors_below_hw: a drive's request size limit below what its controller and bridge accept.
#include <algorithm>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/base/text.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

void check_max_sectors_below_hw(const Context& cx) {
  for (const auto& d : cx.devices) {
    const auto& u = usb(cx.t, d.dev);
    for (const auto* m : d.media()) {  // an empty slot is never loaded: its queue limits do not matter
      const auto& b = cx.t[m->block].as<BlockInfo>();
      // Garbage limits (UINT_MAX, 0) or an inconsistent pair (current above hardware) prove nothing.
      if (!plausible_sectors_kb(b.max_sectors_kb) || !plausible_sectors_kb(b.max_hw_sectors_kb)) continue;
      if (*b.max_sectors_kb > *b.max_hw_sectors_kb) continue;
      const unsigned target = std::min(*b.max_hw_sectors_kb, cx.config.max_sectors_target_kb);
      if (*b.max_sectors_kb >= target) continue;
      auto f = cx.finding(FindingSeverity::Info, {b.name, u.name});
      ev(f, b.name + "/queue/max_sectors_kb", std::to_string(*b.max_sectors_kb));
      ev(f, b.name + "/queue/max_hw_sectors_kb", std::to_string(*b.max_hw_sectors_kb));
      const std::string attr = "/sys/block/" + b.name + "/queue/max_sectors_kb";
      f.message = fmt::format(
          "{} sends at most {} KiB per request although the controller and bridge accept {} KiB. Raising the "
          "limit "
          "to {} KiB lets large sequential reads and writes go out in {}x fewer commands, which mostly helps "
          "Bulk-Only (usb-storage) drives that handle one command at a time; it is Linux's equivalent of the "
          "Windows \"Turbo mode\" of USB drive tools.",
          topology::describe_drive(u, b.name), *b.max_sectors_kb, *b.max_hw_sectors_kb, target,
          std::max(1u, target / std::max(1u, *b.max_sectors_kb)));
      std::string rule;
      if (u.vendor_id && u.product_id)
        rule = fmt::format(
            "\nTo keep it across replugs, add a udev rule (/etc/udev/rules.d/90-max-sectors.rules):\n"
            "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{{DEVTYPE}}==\"disk\", "
            "ATTRS{{idVendor}}==\"{}\", "
            "ATTRS{{idProduct}}==\"{}\", ATTR{{queue/max_sectors_kb}}=\"{}\"",
            format_hex4(*u.vendor_id), format_hex4(*u.product_id), target);
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

}  // namespace usbsat::analysis::doctor
