#pragma once
/// The doctor's checks: one file per check (check_<id>.cpp), one row per check in the table (diagnose.cpp),
/// and what they share: the storage devices they look at, the Context a check runs in, and small helpers.
///
/// Adding a check = one file check_<id>.cpp defining `void check_<id>(const Context&)`, its declaration and
/// one row in kChecks (diagnose.cpp), one test file tests/analysis/doctor/check_<id>_test.cpp (in
/// doctor_test, tests/analysis/CMakeLists.txt), and the file in src/analysis/CMakeLists.txt. The row's id is
/// the findings' id (stable API).
///
/// Wording that names drives, controllers, ports and links comes from topology/words/describe.hpp; figures
/// come from topology/capacity/bandwidth.hpp. A check never builds a finding on an implausible value
/// (plausible_* below).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/doctor/finding.hpp"
#include "topology/base/text.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::doctor {

/// A USB device with mass storage, as the per-device checks (UAS, speed, hub uplink, autosuspend, ...) see
/// it. Derived from common::usb_drives (the one drive rule): one entry per USB device that has at least one
/// USB drive, its drives in block_devices() order (empty card-reader slots included, has_media = false).
struct StorageDevice {
  topology::Vertex dev{};
  std::vector<topology::Vertex> ifaces;                ///< its mass-storage interfaces
  std::vector<common::UsbDrive> drives;                ///< every block device of it, media or not
  std::vector<const common::UsbDrive*> media() const;  ///< the drives with media (the ones counted)
};

/// Storage devices of `t`, in depth-first topology order (the order findings are reported in).
std::vector<StorageDevice> storage_devices(const topology::Topology& t);

/// What one check runs with. `id` is the check's row in the table: every finding it makes carries it.
struct Context {
  std::string_view id;
  const topology::Topology& t;
  const DoctorConfig& config;
  const std::vector<StorageDevice>& devices;
  std::vector<Finding>& out;

  /// A new finding of this check.
  Finding finding(FindingSeverity s, std::vector<std::string> devices) const;
};

using CheckFn = void (*)(const Context&);
/// One row of the check table: the stable finding id and the function that looks for it.
struct CheckRow {
  std::string_view id;
  CheckFn run;
};
/// The table, in presentation order within one severity (diagnose.cpp).
std::span<const CheckRow> check_table();

// ---- the checks (one file each)
// ------------------------------------------------------------------------------
void check_legacy_companion(const Context& cx);
void check_overcurrent(const Context& cx);
void check_speed_below_capability(const Context& cx);
void check_uas_inactive(const Context& cx);
void check_slow_hub_uplink(const Context& cx);
void check_shared_bandwidth(const Context& cx);
void check_pcie_link_degraded(const Context& cx);
void check_max_sectors_below_hw(const Context& cx);
void check_autosuspend(const Context& cx);
void check_usb4_link_below_capability(const Context& cx);
void check_usb4_tunnel_displays(const Context& cx);
void check_tb_dock_pcie_narrow(const Context& cx);
void check_usb4_bus_not_visible(const Context& cx);

// ---- shared helpers (checks.cpp)
// -----------------------------------------------------------------------------

const topology::UsbDeviceInfo& usb(const topology::Topology& t, topology::Vertex v);
/// The names a finding lists for a device: its media first (what users know), then its kernel name.
std::vector<std::string> device_names(const topology::Topology& t, const StorageDevice& d);
/// "sdc (Samsung Portable SSD T7, 04e8:4001)": the device named by its first medium (else its kernel name).
std::string device_label(const topology::Topology& t, const StorageDevice& d);
void add_unique(std::vector<std::string>& v, const std::string& s);
/// At most this many items of one list go into a finding's evidence (the rest are counted; a list one longer
/// is shown whole), so a machine with thousands of free connectors does not print them all once per finding.
inline constexpr std::size_t kEvidenceItems = 8;
/// A fix names at most three connectors ("a or b or c (2 more in the evidence)"); the evidence lists up to
/// kEvidenceItems of them. Only the connectors shown are described (describing is the cost here).
std::string short_list(const topology::Topology& t, const std::vector<const topology::Connector*>& cs);
/// An evidence value listing `cs` (described) joined by ", ": beyond kEvidenceItems + 1 connectors, the first
/// kEvidenceItems and "and N more".
std::string evidence_list(const topology::Topology& t, const std::vector<const topology::Connector*>& cs);
void ev(Finding& f, std::string key, std::string value);
/// The storage devices whose traffic rides the USB3 tunnel of `link` (their root port shares its Type-C
/// connector), in `cx.devices` order.
std::vector<const StorageDevice*> tunnel_devices(const Context& cx, const topology::Usb4LinkSummary& link);
/// The names a finding lists for `ds` (device_names of each, in order, without repeats).
std::vector<std::string> devices_names(const topology::Topology& t,
                                       const std::vector<const StorageDevice*>& ds);
/// "sda (SanDisk Extreme 55AE, 0781:558c), sdb (...)": device_label of each, joined by ", ".
std::string devices_labels(const topology::Topology& t, const std::vector<const StorageDevice*>& ds);
/// The firmware marks `port` as "not used" (no physical connector).
bool not_used(const topology::Topology& t, std::optional<topology::Vertex> port);
/// Free connectors usable by a new device: nothing plugged in, a USB3 side, neither side "not used".
bool free_usb3_connector(const topology::Topology& t, const topology::Connector& c);
/// Every connector for which free_usb3_connector() holds, in connectors() order: found once per check, not
/// per finding (a machine can have thousands).
std::vector<const topology::Connector*> free_usb3_connectors(const topology::Topology& t);

// ---- plausibility: inputs a finding may rest on
// ------------------------------------------------------------

/// A USB speed the doctor may reason about: known (not UsbSpeed::Unknown).
bool plausible_speed(std::optional<topology::UsbSpeed> s);
/// A PCIe link speed of a known generation (2.5 ... 64 GT/s): inf, NaN and huge values are not.
bool plausible_pcie_speed(std::optional<double> gts);
/// A PCIe link width the spec allows (x1, x2, x4, x8, x12, x16, x32).
bool plausible_pcie_width(std::optional<unsigned> width);
/// A block-queue limit in KiB a kernel can report (4 KiB .. 1 GiB per request; UINT_MAX is garbage).
bool plausible_sectors_kb(std::optional<unsigned> kb);
/// An event count a port can plausibly report since boot (garbage such as UINT_MAX is not).
bool plausible_count(std::optional<unsigned> n);

}  // namespace usbsat::analysis::doctor
