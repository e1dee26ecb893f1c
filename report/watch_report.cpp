// `usbsat watch` verdicts: text lines and JSON Lines over results::WatchVerdict.
#include "report/watch_report.hpp"
#include "topology/base/text.hpp"

#include <fmt/format.h>

#include "report/doctor_report.hpp"
#include "report/drives_view.hpp"
#include "report/formatters.hpp"
#include "report/json_common.hpp"
#include "topology/base/string_table.hpp"
#include "topology/model/speed.hpp"
#include "topology/words/describe.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::report {
namespace {

Color severity_color(FindingSeverity s) {
  switch (s) {
    case FindingSeverity::Problem:
      return Color::Problem;
    case FindingSeverity::Warning:
      return Color::Warning;
    case FindingSeverity::Info:
      break;
  }
  return Color::Info;
}

/// The shared node's kind as the watch JSON names it (report/schemas/watch-event.schema.json); any other node
/// a drive shares is its controller.
constexpr topology::StringTable<topology::NodeKind, 3> kShareKinds{{{
    {topology::NodeKind::Hub, "hub"},
    {topology::NodeKind::RootHub, "usb_bus"},
    {topology::NodeKind::PciHop, "pcie_link"},
}}};

std::string_view share_kind(topology::NodeKind k) {
  return kShareKinds.name(k, "controller");
}

/// The notes on an added drive: slower than it could be, and why (none for a removed one).
std::vector<std::string> notes(const WatchVerdict& v) {
  return v.running ? drive_notes(*v.running) : std::vector<std::string>{};
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return out;
}

}  // namespace

std::string protocol_reason(const WatchVerdict& e) {
  if (e.protocol == "uas") return "the uas driver is bound (queued commands)";
  if (e.protocol != "bot") return e.protocol.empty() ? "" : "neither uas nor usb-storage is bound";
  if (!e.uas_capable.value_or(false)) return "the device offers no UAS interface, so usb-storage runs it";
  if (e.uas_blocked_reason)
    return "UAS-capable but driven by usb-storage: " + topology::display_string(*e.uas_blocked_reason);
  return "UAS-capable but driven by usb-storage (see the findings)";
}

std::string render_watch_text(const WatchVerdict& e, const TextStyle& style) {
  std::string out;
  const std::string size = e.size_bytes && *e.size_bytes ? ", " + format_disk_size(*e.size_bytes) : "";
  if (e.action == "remove") {
    out += fmt::format("- {} removed{}{}\n", e.drive, e.connector_text.empty() ? "" : " from ",
                       e.connector_text);
    return out;
  }
  out += fmt::format("+ {} plugged in{}{}\n", e.drive, size, e.has_media ? "" : " (no medium)");
  if (!e.connector_text.empty())
    out += fmt::format("  connector: {}{}{}\n", e.connector_text,
                       e.side.empty() ? "" : ", " + e.side + " side", e.where.empty() ? "" : ", " + e.where);
  out += fmt::format("  speed: {}\n", topology::describe_speed(e.speed, e.capable));
  if (!e.protocol.empty()) {
    const bool uas = e.protocol == "uas";
    out += fmt::format("  protocol: {}: {}\n",
                       paint(uas                   ? "UAS"
                             : e.protocol == "bot" ? "Bulk-Only"
                                                   : e.protocol,
                             uas ? Color::Good : Color::Warning, style),
                       protocol_reason(e));
  }
  if (e.tunnel) out += fmt::format("  arrived in the {}\n", e.tunnel->text);
  for (const auto& n : notes(e)) out += fmt::format("  note: {}\n", n);
  if (e.sharing.empty()) out += "  shares: nothing with another drive\n";
  for (const auto& s : e.sharing)
    out += fmt::format("  shares {} with {}\n", s.label, topology::join(s.drives, ", "));
  for (const auto& f : e.findings)
    out +=
        fmt::format("  {} {}: {}\n", paint(upper(to_string(f.severity)), severity_color(f.severity), style),
                    f.id, f.message);
  if (e.move)
    out += fmt::format("  move it to {}: {}, {}{}: {} instead of {}\n", e.move->description,
                       topology::to_string(e.move->connector.speed_class), e.move->controller,
                       e.move->own_controller ? " (own controller)" : "",
                       topology::mbs_text(e.move->then_mbs, 1), topology::mbs_text(e.move->now_mbs, 1));
  else if (!e.connector_text.empty() && e.has_media)
    out += "  placement: no free connector would be faster for it\n";
  return out;
}

std::string render_watch_json(const WatchVerdict& e, std::string_view time) {
  Json sharing = Json::array();
  for (const auto& s : e.sharing)
    sharing.push_back(Json{{"kind", std::string(share_kind(s.kind))},
                           {"node", s.node},
                           {"label", s.label},
                           {"drives", s.drives}});
  Json findings = Json::array();
  for (const auto& f : e.findings) findings.push_back(json_finding(f));
  Json tunnel;
  if (e.tunnel)
    tunnel = Json{{"router", e.tunnel->router},
                  {"label", e.tunnel->label},
                  {"text", e.tunnel->text},
                  {"usb3_tunnel_gbps", opt(e.tunnel->usb3_tunnel_gbps)},
                  {"path", e.tunnel->path}};
  Json move = nullptr;
  if (e.move)
    move = Json{{"connector", json_connector(e.move->connector)},
                {"description", e.move->description},
                {"speed", std::string(topology::to_string(e.move->connector.speed_class))},
                {"controller", e.move->controller},
                {"own_controller", e.move->own_controller},
                {"now_mbs", e.move->now_mbs},
                {"then_mbs", e.move->then_mbs}};
  const auto text_or_null = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
  Json event{
      {"event", "watch"},
      {"time", time.empty() ? Json(nullptr) : Json(std::string(time))},
      {"action", e.action},
      {"dev", e.dev},
      {"devnode", text_or_null(e.devnode)},
      {"drive", e.drive},
      {"size_bytes", opt(e.size_bytes)},
      {"has_media", e.has_media},
      {"connector", e.connector ? json_connector(*e.connector) : Json(nullptr)},
      {"connector_text", text_or_null(e.connector_text)},
      {"side", text_or_null(e.side)},
      {"where", text_or_null(e.where)},
      {"speed_mbps", json_mbps(e.speed)},
      {"capable_mbps", json_mbps(e.capable)},
      {"protocol", text_or_null(e.protocol)},
      {"uas_capable", opt(e.uas_capable)},
      {"protocol_reason", text_or_null(protocol_reason(e))},
      {"notes", notes(e)},
      {"sharing", std::move(sharing)},
      {"findings", std::move(findings)},
      {"move", std::move(move)},
  };
  // Only on a machine with a thunderbolt bus, as in `drives --json`: other machines' events are unchanged.
  if (e.tunnel) event["usb4_tunnel"] = std::move(tunnel);
  return dump_json_line(event);
}

}  // namespace usbsat::report
