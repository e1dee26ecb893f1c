// diagnose(): the table of checks and the order findings are presented in.
#include <algorithm>
#include <optional>

#include "src/analysis/doctor/checks.hpp"

namespace usbsat::analysis::doctor {
namespace {

/// One row per check; the id is the stable finding id. Row order is the presentation order within one
/// severity (each check appends in topology order).
constexpr CheckRow kChecks[] = {
    {"legacy_companion", &check_legacy_companion},
    {"overcurrent", &check_overcurrent},
    {"speed_below_capability", &check_speed_below_capability},
    {"uas_inactive", &check_uas_inactive},
    {"slow_hub_uplink", &check_slow_hub_uplink},
    {"shared_bandwidth", &check_shared_bandwidth},
    {"pcie_link_degraded", &check_pcie_link_degraded},
    {"usb4_link_below_capability", &check_usb4_link_below_capability},
    {"usb4_tunnel_displays", &check_usb4_tunnel_displays},
    {"tb_dock_pcie_narrow", &check_tb_dock_pcie_narrow},
    {"usb4_bus_not_visible", &check_usb4_bus_not_visible},
    {"max_sectors_below_hw", &check_max_sectors_below_hw},
    {"autosuspend", &check_autosuspend},
};

/// The predictor of one diagnose() run, asked once: two checks read its shares (shared_bandwidth,
/// slow_hub_uplink), and on a machine of thousands of drives one prediction takes a second.
class OncePredictor : public SharePredictor {
 public:
  explicit OncePredictor(const SharePredictor& p) : p_(p) {}
  std::vector<DriveShare> predict(const topology::Topology& t) const override {
    if (!shares_) shares_ = p_.predict(t);
    return *shares_;
  }
  std::vector<DriveShare> predict_at_link_ceiling(const topology::Topology& t) const override {
    return p_.predict_at_link_ceiling(t);
  }

 private:
  const SharePredictor& p_;
  mutable std::optional<std::vector<DriveShare>> shares_;
};

}  // namespace

std::span<const CheckRow> check_table() {
  return kChecks;
}

DoctorResult diagnose(const topology::Topology& t, const DoctorConfig& config) {
  const auto devices = storage_devices(t);
  DoctorResult r;
  r.controllers_checked = t.controllers().size();
  // Drives are counted as plan and saturate count them: one per medium (common::usb_drives_with_media).
  r.drives_checked = common::usb_drives_with_media(t).size();
  DoctorConfig once = config;
  std::optional<OncePredictor> predictor;
  if (config.predictor) once.predictor = &predictor.emplace(*config.predictor);
  for (const auto& row : kChecks) row.run(Context{row.id, t, once, devices, r.findings});
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return r;
}

}  // namespace usbsat::analysis::doctor
