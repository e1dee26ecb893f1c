// `usbsat report` and `topo --dot` renderers without a browser: the graph model, the DOT text, the chart data
// and SVG, the HTML page (goldens in tests/fixtures/golden/report_*), the escaping rules and the Graphviz
// layout.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/chart_data.hpp"
#include "report/charts.hpp"
#include "report/dot.hpp"
#include "report/graph_model.hpp"
#include "report/graphviz_layout.hpp"
#include "report/html_escape.hpp"
#include "report/html_report.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"
#include "topology/capacity/pcie_tunnels.hpp"

using namespace usbsat::report;
namespace tp = usbsat::topology;
using usbsat::testing::check_golden;
using usbsat::testing::golden_path;

namespace {

nlohmann::json read_golden_json(const std::string& name) {
  std::ifstream in(golden_path(name));
  return nlohmann::json::parse(in);
}

const GraphNode* node(const GraphModel& g, const std::string& id) {
  for (const auto& n : g.nodes)
    if (n.id == id) return &n;
  return nullptr;
}

const GraphLine* line(const GraphNode& n, const std::string& text) {
  for (const auto& l : n.lines)
    if (l.text == text) return &l;
  return nullptr;
}

const GraphEdge* edge(const GraphModel& g, const std::string& from, const std::string& to) {
  for (const auto& e : g.edges)
    if (e.from == from && e.to == to) return &e;
  return nullptr;
}

/// Two findings about sdb and one about a port (drawn at its occupant), as the doctor would word them.
std::vector<Finding> sample_findings() {
  return {{"speed_below_capability",
           FindingSeverity::Warning,
           {"sdb", "4-1"},
           {{"4-1/speed", "5000"}},
           "sdb can run at 10 Gb/s but negotiated 5 Gb/s.",
           "Use a 10 Gb/s port."},
          {"shared_bandwidth",
           FindingSeverity::Problem,
           {"sdb", "sdc"},
           {},
           "2 drives share <one> link & more.",
           "Move \"sdc\" elsewhere."},
          {"overcurrent", FindingSeverity::Info, {"usb4-port2"}, {}, "Over-current seen.", ""}};
}

PredictInput sample_predict() {
  using topology::Bandwidth;
  const topology::Basis ceiling{topology::BasisKind::LinkCeiling, "USB 3.2 Gen 1 UAS link"};
  const results::Bottleneck x1{"pcie_link:0000:03:00.0", "0000:03:00.0", topology::ResourceKind::PcieLink,
                               Bandwidth::from_mbs(400), "PCIe 2.0 x1 link of 0000:03:00.0"};
  PredictInput p;
  p.drives.push_back({{"sdb", Bandwidth::from_mbs(400), ceiling, Bandwidth::from_mbs(200), x1}, "port 1"});
  p.drives.push_back({{"sdc", Bandwidth::from_mbs(400), ceiling, Bandwidth::from_mbs(200), x1}, "port 2"});
  p.aggregate = Bandwidth::from_mbs(400);
  p.bound.max_flow = Bandwidth::from_mbs(400);
  return p;
}

}  // namespace

TEST_CASE("report graph: asm1042 card, styles, shared link, findings as rows of their node") {
  const auto t = usbsat::testing::asm1042_card();
  const auto findings = sample_findings();
  const auto predict = sample_predict();
  const auto g = build_graph({t, findings, predict.drives, false});
  check_golden("report_asm1042.dot", render_dot(g));

  // Drives: UAS colour, predicted share, "limited by".
  const auto* sdb = node(g, "sdb");
  REQUIRE(sdb);
  CHECK(sdb->kind == "drive");
  CHECK(sdb->style.fillcolor == palette::kUas);
  CHECK(line(*sdb, "predicted 200 MB/s"));
  // Its USB device 4-1 is folded into it; the connector is the label of the edge from the root hub's row.
  CHECK_FALSE(node(g, "4-1"));
  const auto* in = edge(g, "0000:03:00.0", "sdb");
  REQUIRE(in);
  CHECK(in->from_port == "usb4");
  CHECK(in->label == "port 2 [USB3 5G]\n5G, 400 MB/s");
  // The controller and its root hubs are one node, each bus a row (a port), empty ports a row.
  const auto* card = node(g, "0000:03:00.0");
  REQUIRE(card);
  REQUIRE(line(*card, "usb3 root hub 480M"));
  CHECK(line(*card, "usb3 root hub 480M")->port == "usb3");
  CHECK(line(*card, "empty ports 1 2"));
  CHECK_FALSE(node(g, "usb3"));
  // The PCIe link above the card carries both drives: shared.
  bool shared_pcie = false;
  for (const auto& e : g.edges)
    if (e.to == "0000:03:00.0" && e.shared) shared_pcie = true;
  CHECK(shared_pcie);
  // Findings: one row each in the node they concern, linking to their entry; the port's finding (usb4-port2)
  // shown at its occupant, folded into sdb; each finding names the node that shows it.
  const auto* w = line(*sdb, "WARNING 1: speed_below_capability");
  REQUIRE(w);
  CHECK(w->url == "#finding-1");
  CHECK(w->fill == palette::kWarning);
  CHECK(line(*sdb, "PROBLEM 2: shared_bandwidth")->fill == palette::kProblem);
  CHECK(line(*sdb, "INFO 3: overcurrent"));
  CHECK(g.finding_nodes == std::vector<std::string>{"sdb", "sdb", "sdb"});
  CHECK(node_anchor("sdb") == "node-sdb");
  // Every node id is unique, every edge joins two drawn nodes.
  std::set<std::string> ids;
  for (const auto& n : g.nodes) CHECK(ids.insert(n.id).second);
  for (const auto& e : g.edges) {
    CHECK(ids.count(e.from));
    CHECK(ids.count(e.to));
  }
}

TEST_CASE("report graph: BOT drives, below capability, empty ports a row or each drawn with show_all") {
  const auto t = usbsat::testing::workstation();
  const auto g = build_graph({t, {}, {}, false});
  check_golden("report_workstation.dot", render_dot(g));
  bool bot = false, below = false, empty_summary = false;
  for (const auto& n : g.nodes) {
    if (n.kind == "drive" && n.style.fillcolor == palette::kBot) bot = true;
    if (n.kind == "drive" && n.style.color == palette::kBelowCapability) below = true;
    for (const auto& l : n.lines) empty_summary |= l.text.rfind("empty port", 0) == 0;
    CHECK(n.kind != "port");
  }
  CHECK(bot);
  CHECK(below);
  CHECK(empty_summary);
  const auto all = build_graph({t, {}, {}, true});
  std::size_t ports = 0;
  bool devices = false;
  for (const auto& n : all.nodes) {
    for (const auto& l : n.lines) CHECK(l.text.rfind("empty port", 0) != 0);
    ports += n.kind == "port";
    devices |= n.kind == "device";  // with show_all a drive's USB device is a node of its own
  }
  CHECK(ports > 0);
  CHECK(devices);
}

TEST_CASE("report graph: legacy EHCI bus shared, disks not on USB drawn alone") {
  const auto t = usbsat::testing::legacy_ehci();
  const auto g = build_graph({t, {}, {}, false});
  check_golden("report_legacy_ehci.dot", render_dot(g));
}

TEST_CASE("report graph: a Thunderbolt 3 dock's PCIe tunnel is a dashed line from its router to its switch") {
  const auto t = usbsat::testing::tb3_dock();
  const auto tunnels = tp::pcie_tunnels(t);
  REQUIRE(tunnels.size() == 1);
  const std::string entry(tp::node_id(t, tunnels[0].entry));
  const auto g = build_graph({t, {}, {}, false});
  REQUIRE(node(g, tunnels[0].name));
  REQUIRE(node(g, entry));
  const auto* e = edge(g, tunnels[0].name, entry);
  REQUIRE(e);
  CHECK(e->note);
  CHECK(e->label == "PCIe tunnel, 400 MB/s");
  CHECK(render_dot(g).find("\"" + tunnels[0].name + "\" -> \"" + entry +
                           "\" [label=\"PCIe tunnel, 400 MB/s\", "
                           "style=\"dashed\"") != std::string::npos);
}

TEST_CASE("dot_quote escapes quotes and backslashes and blanks control characters") {
  CHECK(dot_quote("sdb") == "\"sdb\"");
  CHECK(dot_quote("a \"b\"") == "\"a \\\"b\\\"\"");
  CHECK(dot_quote("x\\y") == "\"x\\\\y\"");
  CHECK(dot_quote("line\nbreak\t") == "\"line break \"");
  CHECK(dot_quote("") == "\"\"");
}

TEST_CASE("html_escape: markup characters and control characters") {
  CHECK(html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(html_escape("plain") == "plain");
  CHECK(html_escape(std::string("bad\x1b[31m")) == "bad\\x1b[31m");
}

TEST_CASE("nice_ceiling rounds axis tops up to 1, 2, 2.5 or 5 times a power of ten") {
  CHECK(nice_ceiling(0) == 1);
  CHECK(nice_ceiling(0.5) == 1);
  CHECK(nice_ceiling(42) == 50);
  CHECK(nice_ceiling(100) == 100);
  CHECK(nice_ceiling(101) == 200);
  CHECK(nice_ceiling(220) == 250);
  CHECK(nice_ceiling(251) == 500);
}

TEST_CASE("charts stay drawable whatever the numbers: finite axis tops and coordinates (issue 24)") {
  CHECK(std::isfinite(nice_ceiling(1e308 * 1.05)));  // infinity
  CHECK(std::isfinite(nice_ceiling(1.7e308)));
  CHECK(nice_ceiling(std::nan("")) == 1);
  BarChart c;
  c.title = "forged";
  c.groups.push_back({"each alone", {{"sdb", 1e308, false}, {"sdc", 3e307, false}}, 1e308});
  c.plateau = -5;
  const auto svg = render_bar_chart_svg(c);  // 1e308 * 1.05 was an infinite axis: -nan coordinates
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
  const auto lines = render_line_chart_svg({"forged", {{"sdb", {1e308, 1, std::nan("")}}}});
  CHECK(lines.find("nan") == std::string::npos);
  CHECK(lines.find("inf") == std::string::npos);
}

TEST_CASE("chart data refuses rates that are no measurement: 1e308, negative (issue 24)") {
  auto doc = read_golden_json("saturate_two_groups.json");
  doc["groups"][0]["phases"][0]["per_drive_mbs"].begin().value() = 1e308;
  const auto huge = saturate_charts(doc);
  CHECK(huge.charts.empty());
  CHECK(huge.error.find("1e+308 MB/s is not a rate") != std::string::npos);
  doc = read_golden_json("saturate_two_groups.json");
  doc["groups"][0]["plateau_mbs"] = -1;
  CHECK(saturate_charts(doc).error.find("-1 MB/s is not a rate") != std::string::npos);
  auto load = read_golden_json("load_two_drives.json");
  load["phases"][0]["per_target"][0]["series_mbs"][0] = 2e6;
  CHECK(load_charts(load).error.find("2000000.0 MB/s is not a rate") != std::string::npos);
}

TEST_CASE("chart data refuses a phase's drive count that is no count: 1e20, 0, -1, 2.5, text (issue 41)") {
  const nlohmann::json bad[] = {1e20, 0, -1, 2.5, "2", 4097, 18446744073709551615u, nullptr};
  for (const auto& n : bad) {
    CAPTURE(n.dump());
    auto doc = read_golden_json("saturate_two_groups.json");
    doc["groups"][0]["phases"][0]["n"] = n;
    const auto charts = saturate_charts(doc);
    CHECK(charts.charts.empty());
    CHECK(charts.error.find("is not a number of drives at once (1 to 4096)") != std::string::npos);
  }
  auto doc = read_golden_json("saturate_two_groups.json");
  doc["groups"][0]["phases"][0]["n"] = 4096;
  CHECK(saturate_charts(doc).error.empty());
}

TEST_CASE("saturate charts: one per group, phases alone and at once, aggregate, model, plateau, verdict") {
  const auto charts = saturate_charts(read_golden_json("saturate_two_groups.json"));
  REQUIRE(charts.error.empty());
  REQUIRE(charts.charts.size() == 2);
  const auto& a = charts.charts[0];
  CHECK(a.title == "group a: loop2, loop3, loop4, loop5");  // what the group is, once, and its drives
  CHECK(charts.charts[1].title == "xHCI controller 0000:03:00.0 (ASM1042): sdb, sdc");
  // One MB/s scale for the run: both charts up to the largest value of either.
  CHECK(a.scale_max == charts.charts[1].scale_max);
  CHECK(a.scale_max == std::max(chart_max(a), chart_max(charts.charts[1])));
  CHECK(a.scale_max > chart_max(a));
  REQUIRE(a.groups.size() == 3);
  CHECK(a.groups[0].label == "each alone");
  CHECK(a.groups[0].bars.size() == 4);
  CHECK(a.groups[1].label == "2 at once");
  CHECK(a.groups[1].bars.back().aggregate);
  CHECK(a.plateau.has_value());
  CHECK(!a.verdict.empty());
  std::string svg;
  for (const auto& c : charts.charts) svg += render_bar_chart_svg(c) + "\n";
  check_golden("report_saturate_charts.svg", svg);
}

TEST_CASE("load charts: one per phase, one line per target") {
  const auto charts = load_charts(read_golden_json("load_two_drives.json"));
  REQUIRE(charts.error.empty());
  REQUIRE(!charts.charts.empty());
  CHECK(!charts.charts.front().series.empty());
  std::string svg;
  for (const auto& c : charts.charts) svg += render_line_chart_svg(c) + "\n";
  check_golden("report_load_charts.svg", svg);
}

TEST_CASE("chart data: a document of the wrong kind is an error, not a chart") {
  const auto wrong = saturate_charts(read_golden_json("load_two_drives.json"));
  CHECK(wrong.charts.empty());
  CHECK(wrong.error.find("saturate --json") != std::string::npos);
  const auto wrong_load = load_charts(nlohmann::json::parse(R"({"phases":[{"targets":["a"]}]})"));
  CHECK(wrong_load.charts.empty());
  CHECK(!wrong_load.error.empty());
}

TEST_CASE("html page: meta, findings with fix, predictions, charts, diagnostics") {
  const auto findings = sample_findings();
  const auto predict = sample_predict();
  const std::vector<tp::Diagnostic> diags{{tp::Severity::Warning, "1-9", "cannot read <descriptors>"}};
  HtmlReportInput in;
  in.meta = {"0.1.0", "host<1>", "2026-01-01 00:00:00 UTC", {"usbsat report -o page.html"}};
  in.topology_svg = "<svg><g id=\"node-sdb\" class=\"node\"><title>sdb</title></g></svg>";
  in.controllers = 2;
  in.drives = 3;
  in.findings = findings;
  in.finding_nodes = {"sdb", "", "sdb"};  // finding 2 is not in the picture
  in.predict = &predict;
  in.saturate = saturate_charts(read_golden_json("saturate_two_groups.json")).charts;
  in.saturate_source = "sat.json";
  in.diagnostics = diags;
  const auto page = render_html(in);
  check_golden("report_page.html", page);
  CHECK(page.find("id=\"finding-2\"") != std::string::npos);
  // A finding shown in the picture links to its node (the node links back, graph_model's rows).
  CHECK(page.find("<a href=\"#node-sdb\">shown at sdb in the picture</a>") != std::string::npos);
  std::size_t shown = 0;
  for (auto at = page.find("shown at"); at != std::string::npos; at = page.find("shown at", at + 1)) ++shown;
  CHECK(shown == 2);
  CHECK(page.find("Move &quot;sdc&quot; elsewhere.") != std::string::npos);
  CHECK(page.find("host&lt;1&gt;") != std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("http") == std::string::npos);  // self-contained: not even a link out
}

TEST_CASE("graphviz layout: DOT in, SVG with one node group per node out, and bad DOT is a LayoutError") {
  const auto t = usbsat::testing::asm1042_card();
  const auto g = build_graph({t, {}, {}, false});
  const auto svg = inline_svg(layout_svg(render_dot(g)));
  CHECK(svg.rfind("<svg", 0) == 0);
  std::size_t groups = 0;
  for (auto p = svg.find("class=\"node"); p != std::string::npos; p = svg.find("class=\"node", p + 1))
    ++groups;
  CHECK(groups == g.nodes.size());
  CHECK(svg.find("<title>sdb</title>") != std::string::npos);
  CHECK(layout_svg(render_dot(g)) == layout_svg(render_dot(g)));  // deterministic
  CHECK_THROWS_AS(layout_svg("digraph { a -> "), LayoutError);
}
