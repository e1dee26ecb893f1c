#include "report/prometheus.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

/// `"` and `\` escaped; the pieces between newlines are already escape_unprintable (valid UTF-8, no
/// controls).
void append_escaped(std::string& out, std::string_view safe) {
  for (char c : safe) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
}

using Labels = std::vector<std::pair<std::string_view, std::string_view>>;

std::string label_set(const Labels& labels) {
  std::string out;
  for (const auto& [name, value] : labels)
    out += fmt::format("{}{}=\"{}\"", out.empty() ? "{" : ",", name, prometheus_label_value(value));
  return out.empty() ? out : out + "}";
}

void family(std::string& out, std::string_view name, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

template <class T>
void sample(std::string& out, std::string_view name, const Labels& labels, T value) {
  out += fmt::format("{}{} {}\n", name, label_set(labels), value);
}

Labels drive_labels(const PrometheusDrive& d) {
  return {{"dev", d.dev},
          {"vid_pid", d.vid_pid},
          {"model", d.model},
          {"controller", d.controller},
          {"connector", d.connector}};
}

/// One gauge family over rows (drives, USB4 links) that have a value for it: a row without one has no series.
template <class Rows, class LabelsOf, class Get>
void gauge_family(std::string& out, const Rows& rows, LabelsOf labels_of, std::string_view name,
                  std::string_view help, Get get) {
  family(out, name, help);
  for (const auto& row : rows)
    if (const auto v = get(row)) sample(out, name, labels_of(row), *v);
}

template <class Get>
void drive_family(std::string& out, const PrometheusInput& in, std::string_view name, std::string_view help,
                  Get get) {
  gauge_family(out, in.drives, drive_labels, name, help, get);
}

Labels usb4_link_labels(const PrometheusUsb4Link& l) {
  return {{"router", l.router}, {"upstream", l.upstream}, {"type", l.type}};
}

template <class Get>
void usb4_family(std::string& out, const PrometheusInput& in, std::string_view name, std::string_view help,
                 Get get) {
  gauge_family(out, in.usb4_links, usb4_link_labels, name, help, get);
}

std::optional<int> as_int(std::optional<bool> b) {
  if (!b) return std::nullopt;
  return *b ? 1 : 0;
}

/// The USB4/Thunderbolt links as trained and what their USB3 tunnels carry (only on machines that have them).
void usb4_link_families(std::string& out, const PrometheusInput& in) {
  usb4_family(out, in, "usbsat_usb4_link_lane_speed_bytes_per_second",
              "Per-lane speed of a USB4/Thunderbolt link as trained (signalling rate in bytes per second: 20 "
              "Gb/s = 2.5e9).",
              [](const PrometheusUsb4Link& l) { return l.lane_speed_bytes_per_s; });
  usb4_family(out, in, "usbsat_usb4_link_lanes", "Lanes of a USB4/Thunderbolt link as trained (1 or 2).",
              [](const PrometheusUsb4Link& l) { return l.lanes; });
  usb4_family(out, in, "usbsat_usb4_link_below_capability",
              "1 when a USB4/Thunderbolt link trained below what both routers can do (one lane, or a lower "
              "rate per lane: usually the cable).",
              [](const PrometheusUsb4Link& l) { return as_int(l.below_capability); });
  usb4_family(
      out, in, "usbsat_usb4_link_usable_bytes_per_second",
      "Usable bandwidth of a USB4/Thunderbolt link: speed x lanes minus the connection manager's 10 % "
      "guard band (bandwidth model).",
      [](const PrometheusUsb4Link& l) { return l.usable_bytes_per_s; });
  usb4_family(
      out, in, "usbsat_usb4_usb3_tunnel_capacity_bytes_per_second",
      "Most the USB3 tunnel of a USB4/Thunderbolt link can carry dock to host, reads (bandwidth model: "
      "its adapter's payload within the link).",
      [](const PrometheusUsb4Link& l) { return l.usb3_tunnel_bytes_per_s; });
  usb4_family(
      out, in, "usbsat_usb4_usb3_tunnel_write_capacity_bytes_per_second",
      "Most the USB3 tunnel of a USB4/Thunderbolt link can carry host to dock, writes, beside the "
      "DisplayPort streams that take that direction (bandwidth model; none assumed when not visible).",
      [](const PrometheusUsb4Link& l) { return l.usb3_tunnel_write_bytes_per_s; });
  // Only where a display was seen, so machines without one keep the families they had.
  if (std::none_of(in.usb4_links.begin(), in.usb4_links.end(),
                   [](const PrometheusUsb4Link& l) { return l.displayport_tunnels.has_value(); }))
    return;
  usb4_family(out, in, "usbsat_usb4_displayport_tunnels",
              "DisplayPort tunnels on a USB4/Thunderbolt link: connected DRM connectors on its Type-C "
              "connector.",
              [](const PrometheusUsb4Link& l) { return l.displayport_tunnels; });
  usb4_family(
      out, in, "usbsat_usb4_displayport_tunnel_bytes_per_second",
      "What the DisplayPort tunnels of a USB4/Thunderbolt link take host to dock (bandwidth model: each "
      "display's EDID mode, else the HBR2 x 4 reservation of 17.28 Gb/s).",
      [](const PrometheusUsb4Link& l) { return l.displayport_bytes_per_s; });
}

}  // namespace

std::string prometheus_label_value(std::string_view raw) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const auto nl = raw.find('\n', start);
    append_escaped(
        out, topology::escape_unprintable(raw.substr(start, nl == std::string_view::npos ? nl : nl - start)));
    if (nl == std::string_view::npos) break;
    out += "\\n";
    start = nl + 1;
  }
  return out;
}

std::string render_prometheus(const PrometheusInput& in) {
  std::string out;
  drive_family(
      out, in, "usbsat_drive_link_speed_bytes_per_second",
      "Negotiated USB link speed of the drive (signalling rate in bytes per second: 480 Mb/s = 60e6).",
      [](const PrometheusDrive& d) { return d.link_speed_bytes_per_s; });
  drive_family(out, in, "usbsat_drive_capable_speed_bytes_per_second",
               "Fastest USB speed the drive offers (BOS descriptor, else bcdUSB), signalling rate in bytes "
               "per second.",
               [](const PrometheusDrive& d) { return d.capable_speed_bytes_per_s; });
  drive_family(out, in, "usbsat_drive_uas_active",
               "1 when the drive runs UAS (uas driver), 0 for Bulk-Only (usb-storage).",
               [](const PrometheusDrive& d) { return as_int(d.uas_active); });
  drive_family(out, in, "usbsat_drive_uas_capable", "1 when the drive offers a UAS interface setting.",
               [](const PrometheusDrive& d) { return as_int(d.uas_capable); });
  drive_family(
      out, in, "usbsat_drive_predicted_share_bytes_per_second",
      "Predicted throughput of the drive with every USB drive busy at once (bandwidth model, max-min fair).",
      [](const PrometheusDrive& d) { return d.predicted_share_bytes_per_s; });

  gauge_family(
      out, in.drives,
      [](const PrometheusDrive& d) {
        auto l = drive_labels(d);
        l.push_back({"basis", d.demand_basis});
        return l;
      },
      "usbsat_drive_demand_bytes_per_second",
      "What the drive streams by itself, the demand the model gives it: measured (usbsat load/saturate), "
      "estimated from its medium, or its link's ceiling (label basis).",
      [](const PrometheusDrive& d) { return d.demand_bytes_per_s; });

  family(out, "usbsat_link_capacity_bytes_per_second",
         "Modelled payload capacity of a shared link on the drives' paths (topology bandwidth model).");
  for (const auto& l : in.links)
    sample(out, "usbsat_link_capacity_bytes_per_second",
           {{"link", l.link}, {"kind", l.kind}, {"node", l.node}}, l.capacity_bytes_per_s);

  if (!in.usb4_links.empty()) usb4_link_families(out, in);

  family(out, "usbsat_doctor_findings", "Number of usbsat doctor findings by id, severity and first device.");
  std::map<std::tuple<std::string_view, std::string_view, std::string_view>, unsigned> counts;
  for (const auto& f : in.findings)
    ++counts[{f.id, results::to_string(f.severity),
              f.devices.empty() ? std::string_view() : f.devices.front()}];
  for (const auto& [key, n] : counts)
    sample(out, "usbsat_doctor_findings",
           {{"id", std::get<0>(key)}, {"severity", std::get<1>(key)}, {"dev", std::get<2>(key)}}, n);

  family(out, "usbsat_scan_duration_seconds", "Time the topology scan took.");
  sample(out, "usbsat_scan_duration_seconds", {}, in.scan_duration_seconds);
  family(out, "usbsat_scan_errors",
         "Error diagnostics of the scan (devices that could not be read completely).");
  sample(out, "usbsat_scan_errors", {}, in.scan_errors);
  return out;
}

}  // namespace usbsat::report
