#pragma once
/// `usbsat watch`: the verdict for one hotplug event, a pure function of the topology before and after the
/// event. Everything it says comes from the existing analyses: the drive summary (topology/drives), the
/// shared nodes (model::shared_node_groups), the doctor's findings (doctor::diagnose) and the planner's best
/// connector for this one drive (plan::make_plan). Its result types live in topology/results/watch.hpp, below
/// both this analysis and report (shared/STYLE.md G1), so the verdict is rendered without a conversion.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/doctor/doctor.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/drives.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/watch.hpp"

namespace usbsat::analysis::watch {

/// What happened, as the monitor reports it.
struct BlockEvent {
  std::string action;  ///< "add", "remove" (others are not verdicts)
  std::string dev;     ///< the whole disk's kernel name: "sdb"
};

/// The verdict's types: the one definition (topology/results/watch.hpp), which report renders as it is.
using Share = results::WatchShare;
using Move = results::WatchMove;
using Tunnel = results::WatchTunnel;
using Verdict = results::WatchVerdict;

/// The verdict for `ev`: for "add" the drive as it is in `after` (connector, speed, protocol, sharing,
/// findings, a better free connector); for "remove" where it was in `before`. nullopt when the event is not
/// about a USB drive (a loop device, a SATA disk, a drive that vanished again before the scan) or the action
/// is neither "add" nor "remove". `doctor` configures the findings (its predictor may be null).
std::optional<Verdict> verdict(const topology::Topology& before, const topology::Topology& after,
                               const BlockEvent& ev, const doctor::DoctorConfig& doctor = {});

}  // namespace usbsat::analysis::watch
