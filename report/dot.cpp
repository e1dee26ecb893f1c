#include "report/dot.hpp"

#include <set>

#include <fmt/format.h>

#include "report/html_escape.hpp"

namespace usbsat::report {
namespace {

/// An edge label: its lines ('\n' in the model) escaped, joined by DOT's line-break escape.
std::string edge_label(std::string_view text) {
  std::string inner;
  for (std::size_t start = 0;;) {
    const auto end = text.find('\n', start);
    const std::string q = dot_quote(text.substr(start, end == std::string_view::npos ? end : end - start));
    inner += (start == 0 ? "" : "\\n") + q.substr(1, q.size() - 2);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return "\"" + inner + "\"";
}

/// Text escaped for an HTML-like label, wrapped at spaces to rows of at most kWrap characters (a long
/// controller name would otherwise make its whole column of the picture wide).
constexpr std::size_t kWrap = 36;
std::string wrapped(std::string_view text) {
  std::string out;
  while (text.size() > kWrap) {
    auto cut = text.rfind(' ', kWrap);
    if (cut == std::string_view::npos || cut == 0) cut = text.find(' ', kWrap);
    if (cut == std::string_view::npos) break;
    out += html_escape(text.substr(0, cut)) + R"(<BR ALIGN="LEFT"/>)";
    text.remove_prefix(cut + 1);
  }
  return out + html_escape(text);
}

/// A node's label as a Graphviz HTML-like table: one left-aligned row per line, the first bold; a row can be
/// a port edges leave from, a link and have a background.
std::string html_label(const std::vector<GraphLine>& lines) {
  std::string out = R"(<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">)";
  for (const auto& l : lines) {
    out += R"(<TR><TD ALIGN="LEFT" BALIGN="LEFT")";
    if (!l.port.empty()) out += " PORT=\"" + html_escape(l.port) + "\"";
    if (!l.url.empty()) out += " HREF=\"" + html_escape(l.url) + "\"";
    if (!l.fill.empty()) out += " BGCOLOR=\"" + html_escape(l.fill) + "\"";
    const std::string text = l.text.empty() ? " " : wrapped(l.text);
    out += ">" + (l.bold ? "<B>" + text + "</B>" : text) + "</TD></TR>";
  }
  return out + "</TABLE>>";
}

constexpr std::size_t kLabelledEdges = 200;

/// Top to bottom while the picture has at most this many leaves (nodes nothing leaves from: drives, mostly),
/// left to right above. Measured on the fixture scenarios (topo --dot | dot, width in pt, LR / TB):
/// pcie-switch-card 1510 / 895, tb-dock 1857 / 532, legacy-ehci (9 leaves) 1156 / 926, workstation (7)
/// 844 / 920, large (250) 1283 / 36156: a top-down tree is narrower until its leaves side by side are wider
/// than the ranks of a left-to-right one, and a page scrolls down, not sideways.
constexpr std::size_t kTopDownLeaves = 9;

std::string rankdir(const GraphModel& g) {
  std::set<std::string> inner;
  for (const auto& e : g.edges) inner.insert(e.from);
  return g.nodes.size() - std::min(g.nodes.size(), inner.size()) <= kTopDownLeaves ? "TB" : "LR";
}

std::string number(double d) {
  return fmt::format("{:g}", d);
}

}  // namespace

std::string dot_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += ' ';
    else
      out += c;
  }
  return out + "\"";
}

std::string render_dot(const GraphModel& g) {
  std::string out =
      "digraph usbsat {\n"
      "  graph [rankdir=" +
      rankdir(g) +
      ", nodesep=0.12, ranksep=0.3, fontname=\"Helvetica\", bgcolor=\"white\"];\n"
      "  node [fontname=\"Helvetica\", fontsize=10, margin=\"0.06,0.03\"];\n"
      "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#495057\", fontcolor=\"#343a40\", "
      "arrowsize=0.6];\n";
  for (const auto& n : g.nodes) {
    out += fmt::format("  {} [id={}, class={}, label={}", dot_quote(n.id), dot_quote(node_anchor(n.id)),
                       dot_quote(n.kind), html_label(n.lines));
    const auto& s = n.style;
    if (!s.shape.empty()) out += ", shape=" + dot_quote(s.shape);
    if (!s.style.empty()) out += ", style=" + dot_quote(s.style);
    if (!s.fillcolor.empty()) out += ", fillcolor=" + dot_quote(s.fillcolor);
    if (!s.color.empty()) out += ", color=" + dot_quote(s.color);
    if (s.penwidth != 1) out += ", penwidth=" + number(s.penwidth);
    if (!n.tooltip.empty()) out += ", tooltip=" + dot_quote(n.tooltip);
    if (!n.url.empty()) out += ", URL=" + dot_quote(n.url);
    out += "];\n";
  }
  for (const auto& e : g.edges) {
    out += fmt::format("  {}{} -> {} [", dot_quote(e.from),
                       e.from_port.empty() ? "" : ":" + dot_quote(e.from_port), dot_quote(e.to));
    std::string attrs;
    auto attr = [&](std::string a) { attrs += (attrs.empty() ? "" : ", ") + a; };
    // A shared link says so in its label too, so the picture reads the same without colour.
    const std::string text = e.shared ? (e.label.empty() ? "shared" : e.label + ", shared") : e.label;
    // Above kLabelledEdges nodes, edge labels are external labels (xlabel): placed after the layout instead
    // of as extra rank nodes, which keeps a 300-device machine's layout ~4x faster (measured on `large`).
    if (!text.empty()) attr((g.nodes.size() > kLabelledEdges ? "xlabel=" : "label=") + edge_label(text));
    if (e.shared)
      attr(fmt::format("class=\"shared\", color=\"{}\", fontcolor=\"{}\", penwidth=3", palette::kShared,
                       palette::kShared));
    if (e.note) attr("style=\"dashed\", arrowhead=\"none\", color=\"#868e96\"");
    out += attrs + "];\n";
  }
  return out + "}\n";
}

}  // namespace usbsat::report
