#pragma once
/// `usbsat plan`'s result: where each drive goes, what to avoid, the headroom left and how the search went,
/// defined once (issue 40). Header-only, below both src/analysis and report: the planner returns it and
/// report/plan_report.hpp renders it as it is, with no mirror type in between (shared/STYLE.md G1).
/// Connectors and ports are indices and vertices of the scanned topology; the one conversion
/// (src/cli/plan_input.cpp) adds their names in the user's terms.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/base/string_table.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"
#include "topology/results/predict.hpp"

namespace usbsat::results {

/// What to optimise first (`--prefer`).
enum class PlanPreference : std::uint8_t {
  Speed,     ///< default: max the minimum predicted rate, then the total; then spread, moves, convenience
  Uas,       ///< first the number of drives that would run UAS (SuperSpeed connectors), then as Speed
  FewMoves,  ///< fewest moved drives among placements within 10% of the best minimum and total
};

inline constexpr topology::StringTable<PlanPreference, 3> kPlanPreferenceNames{{{
    {PlanPreference::Speed, "speed"},
    {PlanPreference::Uas, "uas"},
    {PlanPreference::FewMoves, "few-moves"},
}}};
/// "speed", "uas", "few-moves".
constexpr std::string_view to_string(PlanPreference p) {
  return kPlanPreferenceNames.name(p, "speed");
}
/// The inverse of to_string(PlanPreference); nullopt for anything else.
constexpr std::optional<PlanPreference> parse_preference(std::string_view s) {
  return kPlanPreferenceNames.parse(s);
}

/// A connector the planner may use, with the side a drive would use and why it is (not) a good idea.
struct PlanSlot {
  std::size_t connector = 0;                  ///< index into Topology::connectors()
  std::optional<topology::Vertex> usb3_port;  ///< usable SuperSpeed side (absent or `not used`: none)
  std::optional<topology::Vertex> usb2_port;  ///< usable USB 2.0 / 1.1 side
  std::optional<topology::UsbSpeed> usb3_speed, usb2_speed;  ///< the buses' speeds
  std::optional<std::string> panel;  ///< physical_location panel ("back", "front") when the firmware says
};

/// One drive's place in the plan.
struct Placement {
  std::string drive;          ///< "sdb", or "drive 1" for a new drive
  std::size_t connector = 0;  ///< index into Topology::connectors()
  topology::Vertex port{};    ///< the side it would use
  bool superspeed = false;    ///< on the USB3 side
  topology::UsbRate rate = topology::UsbRate::Unknown;
  topology::StorageProtocol protocol = topology::StorageProtocol::None;
  DrivePrediction prediction;                 ///< demand, predicted share and bottleneck in this placement
  std::optional<std::size_t> from;            ///< its current connector (re-place mode)
  std::optional<topology::Vertex> from_port;  ///< the port it is plugged into now
  bool moved = false;                         ///< from != connector
};

/// Something to avoid, and the connectors it concerns.
struct AvoidNote {
  std::string kind;  ///< "usb1_only", "usb2_only", "shared_link"
  std::string node;  ///< the shared node ("0000:03:00.0", "usb1", "1-1") or "" for a connector class
  std::optional<topology::Bandwidth> capacity;
  std::vector<std::size_t> connectors;  ///< free connectors concerned, indices into Topology::connectors()
  std::string reason;                   ///< one sentence for users
};

/// How much more every drive could ask before the first resource on the drives' paths fills: set when every
/// planned drive gets the demand it was given (with link-ceiling demands a drive's own link is full).
struct Headroom {
  std::string resource;  ///< its id, "pcie_link:0000:03:00.0"
  std::string label;     ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042 ...)"
  topology::Bandwidth capacity, load;
  unsigned drives = 0;            ///< planned drives crossing it
  topology::Bandwidth per_drive;  ///< (capacity - load) / drives: the smallest over all resources
};

struct Plan {
  bool replace = false;       ///< re-placing connected drives (else new drives)
  std::size_t requested = 0;  ///< drives asked about (devices given, or N)
  PlanPreference prefer = PlanPreference::Speed;
  std::vector<Placement> placements;  ///< in request order (devices as given; new drives 1..N)
  topology::Bandwidth min, total;     ///< over the placements
  unsigned moves = 0;
  /// Re-place mode: no placement improves the objective (--prefer uas: drives on UAS, then the slowest
  /// drive, then the total) over the drives where they are, so nothing moves.
  bool already_optimal = false;
  std::optional<Headroom> headroom;   ///< see Headroom; nullopt when a drive is short of its demand
  std::optional<Prediction> current;  ///< re-place mode: the current placement's prediction
  std::vector<AvoidNote> avoid;
  std::vector<PlanSlot> slots;  ///< every usable connector considered
  std::string method;           ///< "exhaustive" or "greedy"
  std::size_t classes = 0;      ///< connector equivalence classes searched
  std::size_t evaluated = 0;    ///< placements evaluated
  std::vector<topology::Diagnostic> diagnostics;
};

}  // namespace usbsat::results
