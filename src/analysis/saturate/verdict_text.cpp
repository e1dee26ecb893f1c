#include "src/analysis/saturate/verdict_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "topology/words/describe.hpp"

namespace usbsat::analysis::saturate {
namespace {

std::string mbs(double v) {
  return topology::mbs_text(v);
}

std::string drive_list(const std::vector<GroupDrive>& drives) {
  std::string out;
  for (std::size_t i = 0; i < drives.size(); ++i) {
    if (i) out += i + 1 == drives.size() ? " and " : ", ";
    out += topology::drive_at(drives[i].dev, drives[i].where);
  }
  return out;
}

/// "2×310 MB/s" when the solo rates agree within 5%, else "310+35 MB/s".
std::string solo_list(const PhaseResult& p) {
  std::vector<double> solos;
  for (const auto& d : p.drives)
    if (d.solo_mbs) solos.push_back(*d.solo_mbs);
  if (solos.empty()) return "?";
  const auto [lo, hi] = std::minmax_element(solos.begin(), solos.end());
  if (*hi <= *lo * 1.05) {
    double sum = 0;
    for (double s : solos) sum += s;
    return fmt::format("{}×{}", solos.size(), mbs(sum / static_cast<double>(solos.size())));
  }
  return topology::mbs_list_text(solos, "+");
}

std::string advice(const AttributedLink& b) {
  if (b.lowest_common_ancestor) return "move one to a port outside " + b.label;
  switch (*b.kind) {
    case topology::ResourceKind::PcieLink:
      return "move one to a port of another controller, such as a chipset port";
    case topology::ResourceKind::UsbBus:
      return "move one to another USB bus, such as a USB 3 port";
    case topology::ResourceKind::HubUplink:
      return "connect one directly to the computer instead of through hub " + b.node;
    case topology::ResourceKind::Controller:
      return "move one to a port of another controller";
    case topology::ResourceKind::Declared:
      return "run them one after the other, or move one off " + b.node;
    case topology::ResourceKind::Usb4Tunnel:
      return "move one to a port of the computer itself, not one of the dock's";
    case topology::ResourceKind::PcieTunnel:
      return "move one to a port of the computer itself: the dock's ports share its controller's PCIe link "
             "through the tunnel";
    case topology::ResourceKind::DriveLink:
      return "its own link is the limit";
  }
  return "move one elsewhere";
}

const PhaseResult* deciding_phase(const GroupVerdict& v) {
  return v.deciding_phase && *v.deciding_phase < v.phases.size() ? &v.phases[*v.deciding_phase] : nullptr;
}

}  // namespace

std::string conclusion(const GroupVerdict& v) {
  const PhaseResult* p = deciding_phase(v);
  const std::string who = drive_list(v.drives);
  if (!p || !p->efficiency) return who + ": no concurrent measurement could be judged.";
  const std::string numbers = fmt::format("together {} of {} solo ({:.0f}%)", mbs(p->aggregate_mbs),
                                          solo_list(*p), *p->efficiency * 100);
  switch (v.verdict) {
    case Verdict::NoContention:
      return fmt::format("{} do not slow each other down: {} — this placement is fine.", who, numbers);
    case Verdict::Saturated: {
      const auto& b = *v.bottleneck;
      if (b.lowest_common_ancestor)
        return fmt::format(
            "{} saturate at {}: {}; no modelled link has that capacity, so the limit is at or above their "
            "lowest common ancestor, {} — {}.",
            who, mbs(p->aggregate_mbs), numbers, b.label, advice(b));
      if (b.capacity_measured)
        return fmt::format(
            "{} share group {}, which carries {} at most (measured; no capacity was declared): {} — {}.", who,
            b.node, mbs(*b.capacity_mbs), numbers, advice(b));
      return fmt::format("{} share the {}: {} — {}.", who, b.label, numbers, advice(b));
    }
    case Verdict::Unexplained: {
      const std::string model = p->predicted_aggregate_mbs
                                    ? fmt::format(", the model predicts {}", mbs(*p->predicted_aggregate_mbs))
                                    : "";
      const std::string where = v.bottleneck ? v.bottleneck->label : v.name;
      return fmt::format(
          "{} slow each other down more than the model explains: {}{}. A shared resource the model does not "
          "know (controller firmware, power, a transaction translator) sits at or above {} — move one "
          "outside "
          "it and measure again.",
          who, numbers, model, where);
    }
  }
  return who;
}

}  // namespace usbsat::analysis::saturate
