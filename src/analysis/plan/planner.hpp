#pragma once
/// The placement planner behind `usbsat plan`: where should N new drives (or these connected drives) go so
/// that, running at once, the slowest one is as fast as possible, then the total is as high as possible.
///
/// A candidate placement puts each drive on a physical connector (Topology::connectors()). The drive's path
/// is its hypothetical link on the side of the connector it would use (the USB3 side when both the drive
/// and the connector are SuperSpeed, else the USB2 side) followed by upstream_resources() of that port:
/// hub uplinks, the EHCI/OHCI/UHCI bus, the controller and its PCIe chain. The same max-min fair prediction
/// as `plan --predict` (src/analysis/model/predict.hpp) then gives every drive's share, so the planner can
/// never disagree with the model it reports.
///
/// Files: slots.cpp, drive_model.cpp, scoring.cpp, search.cpp, advice.cpp, current.cpp, planner.cpp
/// (make_plan); internal.hpp holds what they share.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/predict.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/history/store.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::plan {

using model::Bandwidth;
using model::DrivePrediction;
using model::FlowProblem;
using model::Prediction;

/// What to optimise first (`--prefer`).
enum class PlanPreference : std::uint8_t {
  Speed,     ///< default: max the minimum predicted rate, then the total; then spread, moves, convenience
  Uas,       ///< first the number of drives that would run UAS (SuperSpeed connectors), then as Speed
  FewMoves,  ///< fewest moved drives among placements within 10% of the best minimum and total
};
std::string_view to_string(PlanPreference p);                        ///< "speed", "uas", "few-moves"
std::optional<PlanPreference> parse_preference(std::string_view s);  ///< inverse of to_string

/// "drive 3": the name of new drive `i` (1-based) in a plan for new drives, and in its per-drive demands.
std::string new_drive_name(unsigned i);

/// The question. Either `devices` (connected drives to re-place) or `new_drives` > 0.
struct PlanRequest {
  std::vector<std::string> devices;  ///< block names ("sdb" or "/dev/sdb") of connected drives to re-place
  unsigned new_drives = 0;           ///< N drives not connected yet (assumed SuperSpeed + UAS capable)
  std::optional<Bandwidth> demand;   ///< every drive's demand; nullopt: its link ceiling on each connector
  std::map<std::string, Bandwidth, std::less<>> per_drive;  ///< `--demand sdb=170M` overrides `demand`
  /// What the drives measured before (model/demand.hpp: a connected drive's demand without a given one is
  /// its measurement, else its medium's estimate, else each candidate link's ceiling); nullptr: nothing.
  const history::Store* history = nullptr;
  PlanPreference prefer = PlanPreference::Speed;
  /// Class assignments up to this many are searched exhaustively, beyond it greedy + local improvement.
  std::size_t exhaustive_limit = 20000;
};

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
  std::optional<Bandwidth> capacity;
  std::vector<std::size_t> connectors;  ///< free connectors concerned, indices into Topology::connectors()
  std::string reason;                   ///< one sentence for users
};

/// How much more every drive could ask before the first resource on the drives' paths fills: set when every
/// planned drive gets the demand it was given (with link-ceiling demands a drive's own link is full).
struct Headroom {
  std::string resource;  ///< its id, "pcie_link:0000:03:00.0"
  std::string label;     ///< "PCIe 2.0 x1 link of 0000:03:00.0 (ASM1042 ...)"
  Bandwidth capacity, load;
  unsigned drives = 0;  ///< planned drives crossing it
  Bandwidth per_drive;  ///< (capacity - load) / drives: the smallest over all resources
};

struct Plan {
  bool replace = false;       ///< re-placing connected drives (else new drives)
  std::size_t requested = 0;  ///< drives asked about (devices given, or N)
  PlanPreference prefer = PlanPreference::Speed;
  std::vector<Placement> placements;  ///< in request order (devices as given; new drives 1..N)
  Bandwidth min, total;               ///< over the placements
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

/// Usable connectors: not `not used`, not `hardwired` (internal devices, rate-matching hubs), and free —
/// or occupied by one of `movable` (the drives being re-placed). In Topology::connectors() order.
std::vector<PlanSlot> usable_slots(const topology::Topology& t, const std::vector<topology::Vertex>& movable);

/// Choose the placement. Deterministic: the result depends only on the topology and the request.
/// An empty placement list with a diagnostic when nothing fits (no free connector, unknown device).
Plan make_plan(const topology::Topology& t, const PlanRequest& req,
               const topology::CapacityModel& m = topology::nominal_model());

/// `plan --predict`: every USB whole disk with media (or only `devices` when given), with demands by
/// model/demand.hpp (`per_drive` given, else measured in `store`, else estimated, else the link ceiling),
/// run through make_problem() and predict_fair_share().
FlowProblem current_problem(const topology::Topology& t, const std::vector<std::string>& devices,
                            const std::map<std::string, Bandwidth, std::less<>>& per_drive,
                            const history::Store* store = nullptr,
                            const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::analysis::plan
