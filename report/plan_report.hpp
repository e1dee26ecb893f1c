#pragma once
/// `usbsat plan` and `usbsat plan --predict`: pure text and JSON renderers over plain input structs that
/// src/cli/cmd_plan.cpp fills from the planner and the prediction (G15: report never includes src/).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/style.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/diagnostic.hpp"

namespace usbsat::report {

/// The saturated resource that limits a drive.
struct PlanBottleneck {
  std::string node;  ///< "0000:03:00.0", "usb1", "2-1"
  std::string kind;  ///< "drive_link", "hub_uplink", "usb_bus", "controller", "pcie_link", "declared"
  double capacity_mbs = 0;
  std::string label;  ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASMedia ASM1042 ...)"
  /// a measured capacity: "measured 2026-12-06: 318 MB/s (model 400 MB/s)"; nullopt: the table's figure
  std::optional<std::string> capacity_basis;
};

/// One drive of a prediction.
struct PredictRow {
  std::string dev;
  std::string where;  ///< "port 3", "port 2 of hub 2-1" ("" when unknown)
  double demand_mbs = 0;
  std::string demand_source;  ///< "link_ceiling", "measured", "given", "estimated"
  std::string demand_basis;   ///< the basis in a sentence (topology::describe_basis)
  std::string basis;          ///< the same for a table column (topology::basis_short)
  double predicted_mbs = 0;
  std::optional<PlanBottleneck> bottleneck;
  /// a published measurement of the drive's setup, limiting or not: "published: ASM2142 on PCIe 3.0 x2, UAS
  /// ~1100 MB/s (heise online, ...)" (topology::describe_basis); nullopt: none
  std::optional<std::string> published;
};

/// `plan --predict`.
struct PredictInput {
  std::vector<PredictRow> drives;
  double aggregate_mbs = 0;
  double max_flow_mbs = 0;           ///< the max-flow cross-check of the aggregate
  std::vector<std::string> min_cut;  ///< its minimum cut (resource ids, "demand:sdb")
  std::vector<topology::Diagnostic> diagnostics;
  TextStyle style{};  ///< text: the width the table fits (the "limited by" column gives way)
};

/// One drive's place in a plan.
struct PlanRow {
  std::string drive;                     ///< "sdb" or "drive 1"
  topology::ConnectorSummary connector;  ///< where it goes
  std::string port;                      ///< the side it uses: "usb2-port3"
  std::string speed;                     ///< what the connector can do: "USB3 10G", "USB2 only"
  bool superspeed = false;
  topology::ControllerSummary controller;
  std::optional<topology::ConnectorSummary> from;  ///< where it is now (re-place mode)
  std::optional<std::string> from_port;            ///< the port it uses now ("usb4-port1")
  bool moved = false;
  std::string rate;      ///< "USB 3.2 Gen 1"
  std::string protocol;  ///< "uas", "bot"
  double demand_mbs = 0;
  std::string demand_source;
  std::string demand_basis;  ///< the basis in a sentence (topology::describe_basis)
  std::string basis;         ///< the same for a table column (topology::basis_short)
  double predicted_mbs = 0;
  std::optional<PlanBottleneck> bottleneck;
};

/// Something to avoid.
struct PlanAvoid {
  std::string kind;  ///< "usb2_only", "usb1_only", "shared_link"
  std::string node;
  std::optional<double> capacity_mbs;
  std::vector<std::string> connectors;  ///< connector ids ("usb1-port7")
  std::string reason;
};

/// How much more every planned drive could ask before the first resource on their paths fills.
struct PlanHeadroom {
  std::string resource;  ///< "pcie_link:0000:03:00.0"
  std::string label;     ///< "PCIe 2.0 x1 link of 0000:03:00.0 (...)"
  double capacity_mbs = 0, load_mbs = 0;
  unsigned drives = 0;  ///< planned drives crossing it
  double per_drive_mbs = 0;
};

/// `plan --drives N` / `plan DEV...`.
struct PlanInput {
  bool replace = false;
  std::size_t requested = 0;  ///< drives asked about (placements may be fewer: see diagnostics)
  std::string prefer = "speed";
  std::optional<double> demand_mbs;  ///< the common demand when given
  std::vector<PlanRow> rows;
  double min_mbs = 0, total_mbs = 0;
  unsigned moves = 0;
  bool already_optimal = false;          ///< re-place mode: no move improves the objective, nothing moves
  std::optional<PlanHeadroom> headroom;  ///< when every drive gets its given demand
  std::optional<PredictInput> current;   ///< re-place mode: the current placement
  std::vector<PlanAvoid> avoid;
  std::string method;  ///< "exhaustive" / "greedy"
  std::size_t classes = 0, evaluated = 0, usable_connectors = 0;
  std::vector<topology::Diagnostic> diagnostics;
  TextStyle style{};  ///< text: the width the table fits (the controller column gives way)
};

/// {"drives":[{"dev","where","demand_mbs","demand_source","demand_basis","predicted_mbs","bottleneck":{"node",
///   "kind","capacity_mbs","label","capacity_basis"}|null}],"aggregate_mbs","max_flow_mbs","min_cut":[...],
///   "diagnostics":[...]}
std::string render_predict_json(const PredictInput& in);
/// A table of drives with demand, predicted share and bottleneck, then the aggregate and its cross-check.
std::string render_predict_text(const PredictInput& in);

/// {"mode":"new"|"replace","requested","prefer","demand_mbs","placements":[{"drive","connector":{...},"port",
///   "superspeed","controller":{...},"from":{...}|null,"moved","rate","protocol","demand_mbs",
///   "demand_source","demand_basis","predicted_mbs","bottleneck"}],"min_mbs","total_mbs","moves","already_optimal",
///   "headroom":{"resource","label","capacity_mbs","load_mbs","drives","per_drive_mbs"}|null,"current":{...}|null,
///   "avoid":[{"kind","node","capacity_mbs","connectors","reason"}],"search":{"method","classes",
///   "evaluated","usable_connectors"},"diagnostics":[...]}
std::string render_plan_json(const PlanInput& in);
/// The placement table in the user's terms (controller, port, speed, panel), the totals, what to avoid.
std::string render_plan_text(const PlanInput& in);

}  // namespace usbsat::report
