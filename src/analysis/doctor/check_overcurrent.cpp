// overcurrent: a connector whose ports counted over-current events since boot.
#include <cstdint>

#include <fmt/format.h>

#include "src/analysis/doctor/checks.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

void check_overcurrent(const Context& cx) {
  for (const auto& c : cx.t.connectors()) {
    std::vector<Vertex> hit;
    for (const auto& side : {c.usb2_port, c.usb3_port})
      if (side) {
        const auto& p = cx.t[*side].as<PortInfo>();
        // A garbage count (UINT_MAX) is no evidence of an event.
        if (plausible_count(p.over_current_count) && *p.over_current_count > 0) hit.push_back(*side);
      }
    if (hit.empty()) continue;
    std::vector<std::string> devices;
    for (Vertex p : hit) devices.push_back(cx.t[p].as<PortInfo>().name);
    std::string occupant_txt = "nothing is plugged in now";
    if (auto occ = occupant(cx.t, c)) {
      bool found = false;
      for (const auto& d : cx.devices)
        if (d.dev == *occ) {
          for (auto& n : device_names(cx.t, d)) devices.push_back(n);
          occupant_txt = device_label(cx.t, d) + " is plugged in now";
          found = true;
        }
      if (!found) {
        const auto* u = cx.t[*occ].get_if<UsbDeviceInfo>();
        const std::string name = u ? u->name : cx.t[*occ].syspath();
        devices.push_back(name);
        occupant_txt = name + " is plugged in now";
      }
    }
    auto f = cx.finding(FindingSeverity::Problem, devices);
    std::uint64_t total = 0;
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
        topology::describe_connector(cx.t, c), total, total == 1 ? "" : "s", occupant_txt);
    f.fix =
        "Power bus-powered drives from a powered hub or their own supply (or a Y cable), check the cable and "
        "the "
        "connector for damage, and if it happens with nothing attached, stop using this connector.";
    cx.out.push_back(std::move(f));
  }
}

}  // namespace usbsat::analysis::doctor
