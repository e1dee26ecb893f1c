#pragma once
/// The doctor: findings about USB storage computed purely from a scanned Topology plus a small config.
/// Nothing here reads files or prints; src/cli/cmd_doctor.cpp gathers the config and renders the findings
/// as they are (one Finding type: topology/results/finding.hpp).
/// One file per check (check_<id>.cpp) and a {id, check} table (diagnose.cpp); see checks.hpp.
///
/// Finding ids are stable API (scripts match on them): uas_inactive, speed_below_capability, slow_hub_uplink,
/// shared_bandwidth, pcie_link_degraded, usb4_link_below_capability, usb4_tunnel_displays,
/// tb_dock_pcie_narrow, usb4_bus_not_visible, max_sectors_below_hw, autosuspend, overcurrent,
/// legacy_companion. Severity policy: see FindingSeverity (finding.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/doctor/finding.hpp"
#include "topology/capacity/basis.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::doctor {

/// One drive's predicted throughput when every drive runs at once, from the bandwidth model. One per medium
/// (common::usb_drives_with_media): two cards in one reader are two DriveShares with the same `drive`.
struct DriveShare {
  topology::Vertex drive{};     ///< the drive's USB device vertex (NodeKind::Device)
  double demand_mbps = 0;       ///< what the drive would get alone (MB/s)
  double predicted_mbps = 0;    ///< its max-min fair share with all drives active (MB/s)
  std::string bottleneck;       ///< stable id of the limiting link ("0000:03:00.0", "2-1", "usb2")
  std::string bottleneck_node;  ///< BDF or kernel name of the limiting vertex ("0000:03:00.0", "2-1"), if any
  std::string bottleneck_label;         ///< human name ("PCIe 5 GT/s x1 of ASM1042", "hub 2-1 uplink")
  double bottleneck_capacity_mbps = 0;  ///< usable capacity of that link (MB/s)
  /// where that capacity comes from when it is not the table's: measured or published
  /// (Resource::capacity_basis)
  std::optional<topology::Basis> bottleneck_basis;
  std::optional<topology::Vertex> block;  ///< the medium's whole-disk block device (names it: "sdb")
  topology::Basis basis;  ///< why `demand_mbps` is what it is (given, measured, estimated, link ceiling)
};

/// What the doctor needs from the bandwidth model (src/analysis/model): predicted shares of all USB drives of
/// `t`, all running at once. An adapter over the model implements it; tests use a fake.
class SharePredictor {
 public:
  virtual ~SharePredictor() = default;
  virtual std::vector<DriveShare> predict(const topology::Topology& t) const = 0;
  /// The same drives each at its link's ceiling: what they would share if they were as fast as their links
  /// (shared_bandwidth's INFO when only that contends). Empty: not known.
  virtual std::vector<DriveShare> predict_at_link_ceiling(const topology::Topology&) const { return {}; }
};

/// Facts the doctor cannot find in the topology, gathered by the command (all optional).
struct DoctorConfig {
  /// /sys/module/usb_storage/parameters/quirks ("174c:55aa:u,0bc2:2322:u"); nullopt when unreadable.
  /// Parsed with topology::parse_storage_quirks; shown verbatim as evidence.
  std::optional<std::string> usb_storage_quirks;
  /// Whether the uas driver is present (/sys/module/uas exists); nullopt when unknown.
  std::optional<bool> uas_driver_loaded;
  /// max_sectors_below_hw recommends raising max_sectors_kb to min(max_hw_sectors_kb, this).
  unsigned max_sectors_target_kb = 1024;
  /// A drive whose predicted share is below this fraction of its demand counts as slowed by sharing.
  double shared_threshold = 0.9;
  /// The bandwidth model; nullptr: no shared_bandwidth findings.
  const SharePredictor* predictor = nullptr;
};

struct DoctorResult {
  /// Problems first, then warnings, then info; within one severity in check order, then topology order.
  std::vector<Finding> findings;
  std::size_t controllers_checked = 0;
  std::size_t drives_checked = 0;  ///< USB drives with media, counted as plan and saturate count them
};

/// Run every check over `t`. Deterministic: the same topology and config give the same findings in the
/// same order.
DoctorResult diagnose(const topology::Topology& t, const DoctorConfig& config = {});

}  // namespace usbsat::analysis::doctor
