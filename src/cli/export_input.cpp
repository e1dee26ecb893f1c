// `usbsat export --prometheus`: the scan, the drive facts, plan --predict's shares and the doctor's findings
// as the metrics renderer's rows (report/prometheus.hpp), the one conversion of the command.
#include "src/cli/export_input.hpp"

#include <set>

#include "src/analysis/common/usb_drives.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/drives.hpp"

namespace usbsat::cli {
namespace {

/// The nominal signalling rate in bytes per second (Prometheus' base unit): 480 Mb/s -> 60000000.
std::optional<std::uint64_t> signalling_bytes_per_s(std::optional<topology::UsbSpeed> s) {
  if (!s || *s == topology::UsbSpeed::Unknown) return std::nullopt;
  return topology::Bandwidth::from_mbit(topology::nominal_mbps(*s)).bytes_per_s;
}

report::PrometheusDrive drive_row(const topology::DriveSummary& d) {
  report::PrometheusDrive r;
  r.dev = d.dev;
  r.vid_pid = d.vid_pid.value_or("");
  for (const auto* s : {&d.vendor, &d.model})  // raw: the renderer escapes
    if (*s && !(*s)->empty()) r.model += (r.model.empty() ? "" : " ") + **s;
  if (d.controller) r.controller = d.controller->pci;
  if (d.connector) r.connector = d.connector->id;
  r.link_speed_bytes_per_s = signalling_bytes_per_s(d.speed);
  r.capable_speed_bytes_per_s = signalling_bytes_per_s(d.capable_speed);
  if (d.protocol == topology::StorageProtocol::Uas || d.protocol == topology::StorageProtocol::Bot)
    r.uas_active = d.protocol == topology::StorageProtocol::Uas;
  r.uas_capable = d.uas_capable;
  return r;
}

report::PrometheusUsb4Link usb4_row(const topology::Topology& t, const topology::Usb4LinkSummary& l) {
  report::PrometheusUsb4Link r;
  r.router = l.name;
  r.upstream = t[l.upstream].as<topology::RouterInfo>().name;
  r.type = l.type;
  if (l.lane_gbps)
    r.lane_speed_bytes_per_s = topology::Bandwidth::from_mbit(*l.lane_gbps * 1000.0).bytes_per_s;
  r.lanes = l.lanes;
  if (l.capable && l.lane_gbps && l.lanes) r.below_capability = l.below_capability();
  if (l.usable) r.usable_bytes_per_s = l.usable->bytes_per_s;
  if (l.usb3_tunnel) r.usb3_tunnel_bytes_per_s = l.usb3_tunnel->bytes_per_s;
  if (l.usb3_tunnel_write) r.usb3_tunnel_write_bytes_per_s = l.usb3_tunnel_write->bytes_per_s;
  if (!l.display_connectors.empty()) {
    r.displayport_tunnels = static_cast<unsigned>(l.display_connectors.size());
    r.displayport_bytes_per_s = l.displays.bytes_per_s;
  }
  return r;
}

}  // namespace

report::PrometheusInput to_report(const topology::Topology& t, const analysis::model::Prediction& prediction,
                                  std::span<const results::Finding> findings, double scan_seconds,
                                  std::span<const topology::Diagnostic> diagnostics,
                                  const topology::CapacityModel& m) {
  report::PrometheusInput in;
  std::set<std::string> seen_links;
  for (const auto& drive : analysis::common::usb_drives(t)) {
    auto row = drive_row(topology::summarize_drive(t, drive.block));
    for (const auto& p : prediction.drives)
      if (p.dev == drive.name) {
        row.predicted_share_bytes_per_s = p.predicted.bytes_per_s;
        row.demand_bytes_per_s = p.demand.bytes_per_s;
        row.demand_basis = std::string(topology::to_string(p.basis.kind));
      }
    in.drives.push_back(std::move(row));
    for (const auto& r : topology::path_resources(t, drive.block, m))
      if (r.capacity && seen_links.insert(r.id).second)
        in.links.push_back({r.id, std::string(topology::to_string(r.kind)), r.node, r.capacity->bytes_per_s});
  }
  for (const auto& l : topology::usb4_links(t)) in.usb4_links.push_back(usb4_row(t, l));
  in.findings.assign(findings.begin(), findings.end());
  in.scan_duration_seconds = scan_seconds;
  for (const auto& d : diagnostics) in.scan_errors += d.severity == topology::Severity::Error;
  return in;
}

}  // namespace usbsat::cli
