#pragma once
/// `usbsat export --prometheus`: the node_exporter textfile-collector format (Prometheus text exposition
/// format 0.0.4) over one scan. Pure: src/cli/export_input.cpp fills PrometheusInput from the scan, the drive
/// summaries, plan --predict's share model and the doctor; this file only names, escapes and orders.
///
/// Metric names follow the Prometheus conventions: base units in the name (bytes_per_second, seconds; USB
/// signalling rates too are given in bytes per second, 480 Mb/s = 60000000, as promtool's lint demands), a
/// HELP and a TYPE line per family, and gauges throughout, because every value describes one one-shot scan (a
/// file rewritten by a timer), not a counter that grows in one process.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/results/finding.hpp"

namespace usbsat::report {

/// One USB whole disk. Strings are raw (device firmware may put anything in them); the renderer escapes.
struct PrometheusDrive {
  std::string dev;                                      ///< "sdb"
  std::string vid_pid;                                  ///< "0781:558c", "" when unknown
  std::string model;                                    ///< vendor + model, "" when unknown
  std::string controller;                               ///< the controller's PCI address, "" when unknown
  std::string connector;                                ///< connector id "usb1-port3", "" when unknown
  std::optional<std::uint64_t> link_speed_bytes_per_s;  ///< negotiated USB signalling rate / 8
  std::optional<std::uint64_t>
      capable_speed_bytes_per_s;    ///< the fastest it could negotiate (BOS/bcdUSB), / 8
  std::optional<bool> uas_active;   ///< driven by uas (false: usb-storage / BOT)
  std::optional<bool> uas_capable;  ///< offers a UAS alternate setting
  std::optional<std::uint64_t> predicted_share_bytes_per_s;  ///< all drives at once (plan --predict)
  std::optional<std::uint64_t> demand_bytes_per_s;           ///< what the drive wants (plan --predict)
  std::string demand_basis;  ///< "given", "measured", "estimated", "link_ceiling" (topology::BasisKind)
};

/// One shared resource of the bandwidth model (topology/capacity/bandwidth.hpp) with a known capacity.
struct PrometheusLink {
  std::string link;  ///< resource id, "pcie_link:0000:03:00.0"
  std::string kind;  ///< "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link"
  std::string node;  ///< "0000:03:00.0", "2-1", "usb1"
  std::uint64_t capacity_bytes_per_s = 0;
};

/// One USB4/Thunderbolt link (topology/capacity/usb4_tunnels.hpp): the device router and the router above it.
struct PrometheusUsb4Link {
  std::string router;                                    ///< the device router, "0-1"
  std::string upstream;                                  ///< the router it is linked to, "0-0"
  std::string type;                                      ///< "usb4", "tbt", "" when unknown
  std::optional<std::uint64_t> lane_speed_bytes_per_s;   ///< per lane as trained (20 Gb/s -> 2.5e9)
  std::optional<unsigned> lanes;                         ///< lanes as trained
  std::optional<bool> below_capability;                  ///< trained below what both ends can do
  std::optional<std::uint64_t> usable_bytes_per_s;       ///< speed x lanes - 10 % guard band
  std::optional<std::uint64_t> usb3_tunnel_bytes_per_s;  ///< what its USB3 tunnel can carry at most (reads)
  std::optional<std::uint64_t> usb3_tunnel_write_bytes_per_s;  ///< ... host to dock (writes)
  /// What its DisplayPort tunnels take host to dock; nullopt when no display was seen on it.
  std::optional<std::uint64_t> displayport_bytes_per_s;
  std::optional<unsigned> displayport_tunnels;  ///< how many; nullopt when no display was seen
};

struct PrometheusInput {
  std::vector<PrometheusDrive> drives;
  std::vector<PrometheusLink> links;
  std::vector<PrometheusUsb4Link> usb4_links;  ///< empty without a thunderbolt bus (then no usb4 family)
  std::vector<results::Finding> findings;      ///< the doctor's, counted per (id, severity, first device)
  double scan_duration_seconds = 0;
  std::size_t scan_errors = 0;  ///< error-level scan diagnostics (devices that could not be read)
};

/// A label value as the text format wants it: `\` -> `\\`, `"` -> `\"`, newline -> `\n`. Bytes that are not
/// valid UTF-8 (which the format forbids) become the text `\xNN` first (topology::escape_unprintable), as do
/// other control characters, so any firmware string yields a value promtool accepts.
std::string prometheus_label_value(std::string_view raw);

/// The whole file: every family with HELP and TYPE, series sorted by their labels, one trailing newline.
std::string render_prometheus(const PrometheusInput& in);

}  // namespace usbsat::report
