#pragma once
/// `usbsat watch`: the verdict for one hotplug event, a pure function of the topology before and after the
/// event. Everything it says comes from the existing analyses: the drive summary (topology/drives), the
/// shared nodes (model::shared_node_groups), the doctor's findings (doctor::diagnose) and the planner's best
/// connector for this one drive (plan::make_plan). Its own result types (shared/STYLE.md G1):
/// src/cli/watch_input.hpp converts a Verdict into report input.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/doctor/doctor.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/drives.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::watch {

/// What happened, as the monitor reports it.
struct BlockEvent {
  std::string action;  ///< "add", "remove" (others are not verdicts)
  std::string dev;     ///< the whole disk's kernel name: "sdb"
};

/// Another shared node on the drive's path and the drives that now share it.
struct Share {
  topology::NodeKind kind{};        ///< Hub, RootHub (a USB bus), Controller or PciHop (a PCIe link)
  std::string node;                 ///< "2-1", "usb1", "0000:03:00.0"
  std::string label;                ///< topology::describe_node(): "controller 0000:03:00.0 (ASMedia ...)"
  std::vector<std::string> drives;  ///< the other drives below it, block names
};

/// A better free connector for the drive (the planner's choice for this one drive).
struct Move {
  topology::ConnectorSummary connector;
  std::string description;      ///< topology::describe_connector(): "usb1-port3 (USB3 side usb2-port3, ...)"
  std::string controller;       ///< topology::controller_label() of its controller
  bool own_controller = false;  ///< no other drive on that controller
  double now_mbs = 0;           ///< the model's rate where the drive is
  double then_mbs = 0;          ///< ... and on that connector
};

/// The USB3 tunnel of the USB4/Thunderbolt link a drive landed on (topology/usb4_tunnels: the innermost).
struct Tunnel {
  std::string router;                      ///< the link's device router: "0-1"
  std::string label;                       ///< "USB4 link 0-1 (Dell WD22TB4)"
  std::string text;                        ///< topology::describe_usb3_tunnel(): "USB3 tunnel of the ..."
  std::optional<double> usb3_tunnel_gbps;  ///< what it carries at most (every link on its path limits it)
  std::vector<std::string> path;           ///< the links it passes, host side first: {"0-1", "0-301"}
};

/// One event's verdict.
struct Verdict {
  std::string action;   ///< "add" or "remove"
  std::string dev;      ///< "sdb"
  std::string devnode;  ///< "/dev/sdb"
  std::string drive;    ///< topology::describe_drive(): "sdb (Samsung Portable SSD T5, 04e8:61f5)"
  std::optional<std::uint64_t> size_bytes;
  bool has_media = true;
  std::optional<topology::ConnectorSummary> connector;  ///< where it is (add) or was (remove)
  std::string connector_text;                           ///< topology::describe_connector(), "" when unknown
  std::string side;   ///< the side it uses: "USB3" or "USB2" ("" when unknown)
  std::string where;  ///< topology::drive_where(): "port 2 of hub 2-1"
  std::optional<topology::UsbSpeed> speed, capable;
  std::string protocol;                           ///< "uas", "bot", "other", "" (remove)
  std::optional<bool> uas_capable;                ///< the device offers a UAS interface
  std::optional<std::string> uas_blocked_reason;  ///< why it runs Bulk-Only anyway, when the scan saw it
  std::optional<topology::DriveSummary> running;  ///< add: the drive as it runs now (its notes come from it)
  std::vector<Share> sharing;
  std::optional<Tunnel> tunnel;  ///< add: the USB3 tunnel it rides, on a machine with a thunderbolt bus
  std::vector<doctor::Finding> findings;  ///< the doctor's findings that name this drive
  std::optional<Move> move;
};

/// The verdict for `ev`: for "add" the drive as it is in `after` (connector, speed, protocol, sharing,
/// findings, a better free connector); for "remove" where it was in `before`. nullopt when the event is not
/// about a USB drive (a loop device, a SATA disk, a drive that vanished again before the scan) or the action
/// is neither "add" nor "remove". `doctor` configures the findings (its predictor may be null).
std::optional<Verdict> verdict(const topology::Topology& before, const topology::Topology& after,
                               const BlockEvent& ev, const doctor::DoctorConfig& doctor = {});

}  // namespace usbsat::analysis::watch
