#include "report/html_report.hpp"

#include <fmt/format.h>

#include "report/formatters.hpp"
#include "report/graph_model.hpp"
#include "report/html_escape.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::report {
namespace {

constexpr const char* kStyle = R"(
body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#212529;background:#fff}
h1{font-size:1.5em;margin:0 0 .2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #dee2e6}
.meta{color:#495057;font-size:.9em}.meta code{font-size:.95em}
.picture{overflow:auto;border:1px solid #dee2e6;padding:.5em;max-height:90vh}
.picture svg{max-width:100%;height:auto}
.legend span{display:inline-block;margin-right:1.2em;font-size:.9em}
.sw{display:inline-block;width:1em;height:1em;vertical-align:middle;margin-right:.3em;border:1px solid #868e96}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #dee2e6;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f1f3f5}td.num{text-align:right}
.finding{border-left:6px solid #adb5bd;padding:.4em .8em;margin:.6em 0;background:#f8f9fa}
.finding.problem{border-color:#c92a2a}.finding.warning{border-color:#f08c00}.finding.info{border-color:#1098ad}
.finding pre{white-space:pre-wrap;background:#fff;border:1px solid #dee2e6;padding:.4em;margin:.3em 0}
.sev{font-weight:bold;text-transform:uppercase}.chart{margin:.8em 0}.verdict{font-weight:bold}
.notice{background:#fff3cd;padding:.6em;border:1px solid #ffe08a}
)";

std::string severity_class(FindingSeverity s) {
  return std::string(to_string(s));
}

std::string legend() {
  auto swatch = [](const char* fill, const char* border, const char* text) {
    return fmt::format(R"(<span><i class="sw" style="background:{};border-color:{}"></i>{}</span>)", fill,
                       border, text);
  };
  return std::string(R"(<p class="legend">)") + swatch(palette::kUas, "#868e96", "drive using UAS") +
         swatch(palette::kBot, "#868e96", "drive using Bulk-Only (BOT)") +
         swatch(palette::kOtherDrive, "#868e96", "other disk") +
         swatch("#ffffff", palette::kBelowCapability, "red border: running below capability") +
         swatch(palette::kShared, palette::kShared, "thick orange: a link several drives share") + "</p>\n";
}

/// " - shown at sdb in the picture" linking to the node's drawing, or "" when the picture does not show it.
std::string picture_link(const HtmlReportInput& in, std::size_t i) {
  if (i >= in.finding_nodes.size() || in.finding_nodes[i].empty() || in.topology_svg.empty()) return {};
  return fmt::format(" &middot; <a href=\"#{}\">shown at {} in the picture</a>",
                     html_escape(node_anchor(in.finding_nodes[i])), html_escape(in.finding_nodes[i]));
}

std::string findings_section(const HtmlReportInput& in) {
  const auto findings = in.findings;
  std::string out = "<h2 id=\"findings\">Doctor's findings</h2>\n";
  if (findings.empty()) return out + "<p>No findings: nothing to fix.</p>\n";
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    std::string devices;
    for (const auto& d : f.devices) devices += (devices.empty() ? "" : ", ") + html_escape(d);
    out += fmt::format(
        "<div class=\"finding {}\" id=\"finding-{}\"><span class=\"sev\">{}</span> {}: <code>{}</code>"
        "{}{}<p>{}</p>",
        severity_class(f.severity), i + 1, html_escape(to_string(f.severity)), i + 1, html_escape(f.id),
        devices.empty() ? "" : " &mdash; concerns " + devices, picture_link(in, i), html_escape(f.message));
    if (!f.evidence.empty()) {
      out += "<details><summary>evidence</summary><table>";
      for (const auto& [k, v] : f.evidence)
        out += fmt::format("<tr><td><code>{}</code></td><td><code>{}</code></td></tr>", html_escape(k),
                           html_escape(v));
      out += "</table></details>";
    }
    if (!f.fix.empty()) out += fmt::format("<p>Fix:</p><pre>{}</pre>", html_escape(f.fix));
    out += "</div>\n";
  }
  return out;
}

std::string predict_section(const PredictInput* p) {
  std::string out = "<h2 id=\"predict\">Predicted shares (<code>usbsat plan --predict</code>)</h2>\n";
  if (!p || p->drives.empty()) return out + "<p>No USB drive to predict.</p>\n";
  out +=
      "<table><tr><th>drive</th><th>where</th><th>alone (MB/s)</th><th>basis</th><th>predicted share "
      "(MB/s)</th><th>limited by</th></tr>\n";
  for (const auto& r : p->drives) {
    const auto& d = r.prediction;
    const auto& b = d.bottleneck;
    const std::string limit =
        !b ? "-"
        : b->capacity_basis
            ? b->label + " (" + topology::describe_capacity_basis(*b->capacity_basis, b->capacity) + ")"
            : b->label;
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{:.0f}</td><td title=\"{}\">{}</td><td "
        "class=\"num\">{:.0f}</td><td>{}</td></tr>\n",
        html_escape(d.dev), html_escape(r.where), d.demand.mbs(),
        html_escape(topology::describe_basis(d.basis)), html_escape(topology::basis_short(d.basis)),
        d.predicted.mbs(), html_escape(limit));
  }
  out += fmt::format("</table>\n<p>All at once: {} in total (max-flow cross-check {}).</p>\n",
                     topology::mbs_text(p->aggregate.mbs()), topology::mbs_text(p->bound.max_flow.mbs()));
  return out;
}

std::string saturate_section(const HtmlReportInput& in) {
  if (in.saturate_source.empty()) return {};
  std::string out = fmt::format(
      "<h2 id=\"saturate\">Saturate: alone, 2 and 4 at once</h2>\n<p class=\"meta\">From "
      "<code>{}</code>.</p>\n",
      html_escape(in.saturate_source));
  if (in.saturate.empty()) out += "<p>The result holds no group.</p>\n";
  for (const auto& c : in.saturate) {
    out += "<div class=\"chart\">" + render_bar_chart_svg(c) + "</div>\n";
    if (!c.verdict.empty()) out += "<p class=\"verdict\">" + html_escape(c.verdict) + "</p>\n";
  }
  return out;
}

std::string load_section(const HtmlReportInput& in) {
  if (in.load_source.empty()) return {};
  std::string out = fmt::format(
      "<h2 id=\"load\">Load: throughput per second</h2>\n<p class=\"meta\">From <code>{}</code>.</p>\n",
      html_escape(in.load_source));
  if (in.load.empty()) out += "<p>The result holds no phase.</p>\n";
  for (const auto& c : in.load) out += "<div class=\"chart\">" + render_line_chart_svg(c) + "</div>\n";
  return out;
}

std::string diagnostics_section(std::span<const topology::Diagnostic> ds) {
  if (ds.empty()) return {};
  std::string out = "<h2 id=\"diagnostics\">Scan diagnostics</h2>\n<ul>\n";
  for (const auto& d : ds)
    out += fmt::format("<li>{} {}: {}</li>\n", html_escape(topology::to_string(d.severity)),
                       html_escape(d.where), html_escape(d.message));
  return out + "</ul>\n";
}

}  // namespace

std::string render_html(const HtmlReportInput& in) {
  const auto& m = in.meta;
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>usbsat report: {}</title>\n<style>{}</style>\n</head>\n<body>\n"
      "<h1>usbsat report: {}</h1>\n<p class=\"meta\">usbsat {} &middot; {} &middot; {} USB controller{}, {} "
      "USB "
      "drive{}, {} finding{}</p>\n",
      html_escape(m.host), kStyle, html_escape(m.host), html_escape(m.version), html_escape(m.time),
      in.controllers, in.controllers == 1 ? "" : "s", in.drives, in.drives == 1 ? "" : "s",
      in.findings.size(), in.findings.size() == 1 ? "" : "s");
  out += "<h2 id=\"topology\">Topology</h2>\n";
  if (!in.notice.empty()) out += "<p class=\"notice\">" + html_escape(in.notice) + "</p>\n";
  if (!in.topology_svg.empty())
    out += legend() + "<div class=\"picture\">\n" + in.topology_svg + "\n</div>\n";
  out += findings_section(in);
  out += predict_section(in.predict);
  out += saturate_section(in);
  out += load_section(in);
  out += diagnostics_section(in.diagnostics);
  out += "<h2 id=\"made\">How this page was made</h2>\n<ul class=\"meta\">\n";
  for (const auto& c : m.commands) out += "<li><code>" + html_escape(c) + "</code></li>\n";
  out += fmt::format("</ul>\n<p class=\"meta\">usbsat {} on {}, {}.</p>\n</body>\n</html>\n",
                     html_escape(m.version), html_escape(m.host), html_escape(m.time));
  return out;
}

}  // namespace usbsat::report
