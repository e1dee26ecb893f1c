#pragma once
/// `usbsat watch`'s result: the verdict on one hotplug event of a USB drive, defined once (issue 40).
/// Header-only, below both src/analysis and report: analysis/watch returns it and report/watch_report.hpp
/// renders it as it is, with no mirror type or conversion in between (shared/STYLE.md G1).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/model/connectors.hpp"
#include "topology/model/drives.hpp"
#include "topology/model/node.hpp"
#include "topology/model/speed.hpp"
#include "topology/results/finding.hpp"

namespace usbsat::results {

/// Another shared node on the drive's path and the drives that now share it.
struct WatchShare {
  topology::NodeKind kind{};        ///< Hub, RootHub (a USB bus), Controller or PciHop (a PCIe link)
  std::string node;                 ///< "2-1", "usb1", "0000:03:00.0"
  std::string label;                ///< topology::describe_node(): "controller 0000:03:00.0 (ASMedia ...)"
  std::vector<std::string> drives;  ///< the other drives below it, block names
};

/// A better free connector for the drive (the planner's choice for this one drive).
struct WatchMove {
  topology::ConnectorSummary connector;  ///< its speed class is the move's speed ("USB3 10G")
  std::string description;      ///< topology::describe_connector(): "usb1-port3 (USB3 side usb2-port3, ...)"
  std::string controller;       ///< topology::controller_label() of its controller
  bool own_controller = false;  ///< no other drive on that controller
  double now_mbs = 0;           ///< the model's rate where the drive is
  double then_mbs = 0;          ///< ... and on that connector
};

/// The USB3 tunnel of the USB4/Thunderbolt link a drive landed on (topology/usb4_tunnels: the innermost).
struct WatchTunnel {
  std::string router;                      ///< the link's device router: "0-1"
  std::string label;                       ///< "USB4 link 0-1 (Dell WD22TB4)"
  std::string text;                        ///< topology::describe_usb3_tunnel(): "USB3 tunnel of the ..."
  std::optional<double> usb3_tunnel_gbps;  ///< what it carries at most (every link on its path limits it)
  std::vector<std::string> path;           ///< the links it passes, host side first: {"0-1", "0-301"}
};

/// One event's verdict.
struct WatchVerdict {
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
  std::vector<WatchShare> sharing;
  std::optional<WatchTunnel> tunnel;  ///< add: the USB3 tunnel it rides, on a machine with a thunderbolt bus
  std::vector<Finding> findings;      ///< the doctor's findings that name this drive
  std::optional<WatchMove> move;
};

}  // namespace usbsat::results
