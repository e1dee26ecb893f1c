#pragma once
/// `usbsat watch`: one verdict per hotplug event of a USB drive, as text lines or one JSON object per line
/// (JSON Lines, report/schemas/watch-event.schema.json). src/cli/watch_input.cpp fills the input from the
/// watch verdict (G15); the wording of drives, connectors and nodes comes from topology/describe.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/finding.hpp"
#include "report/style.hpp"
#include "topology/model/connectors.hpp"

namespace usbsat::report {

/// Another shared node on the drive's path and the drives that now share it.
struct WatchShare {
  std::string kind;   ///< "hub", "usb_bus", "controller", "pcie_link"
  std::string node;   ///< "2-1", "usb1", "0000:03:00.0"
  std::string label;  ///< topology::describe_node(): "controller 0000:03:00.0 (ASMedia ASM1042 ...)"
  std::vector<std::string> drives;  ///< the other drives below it, block names
};

/// A better free connector for the drive (the planner's choice for this one drive).
struct WatchMove {
  topology::ConnectorSummary connector;
  std::string
      description;  ///< topology::describe_connector(): "usb1-port3 (USB3 side usb2-port3, back panel, ...)"
  std::string speed;            ///< its class: "USB3 10G"
  std::string controller;       ///< topology::controller_label() of its controller
  bool own_controller = false;  ///< no other drive on that controller
  double now_mbs = 0;           ///< the model's rate where the drive is
  double then_mbs = 0;          ///< ... and on that connector
};

/// The USB3 tunnel of the USB4/Thunderbolt link the drive landed on.
struct WatchTunnel {
  std::string router;                      ///< "0-1"
  std::string label;                       ///< "USB4 link 0-1 (Dell WD22TB4)"
  std::string text;                        ///< topology::describe_usb3_tunnel(): "USB3 tunnel of the ..."
  std::optional<double> usb3_tunnel_gbps;  ///< what it carries at most
  std::vector<std::string> path;           ///< the links it passes, host side first
};

/// One event's verdict.
struct WatchEvent {
  std::string time;     ///< ISO 8601 UTC, set by the command ("" in pure tests)
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
  std::vector<std::string> notes;                 ///< drive_notes(): slower than it could be, and why
  std::vector<WatchShare> sharing;
  std::optional<WatchTunnel> tunnel;  ///< add, on a machine with a thunderbolt bus: the USB3 tunnel it rides
  std::vector<Finding> findings;      ///< the doctor's findings that name this drive
  std::optional<WatchMove> move;
};

/// Why the drive runs the protocol it does, one sentence ("" when the protocol is unknown).
std::string protocol_reason(const WatchEvent& e);

/// Text: one headline ("+ sdb: ...", "- sdb: ...") and, for an added drive, indented lines for the connector,
/// speed, protocol, sharing, findings and advice.
std::string render_watch_text(const WatchEvent& e, const TextStyle& style = {});
/// One JSON object on one line, newline-terminated.
std::string render_watch_json(const WatchEvent& e);

}  // namespace usbsat::report
