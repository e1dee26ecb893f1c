#pragma once
/// Types and steps the planner's files share (not part of the public API in planner.hpp):
///   drive_model.cpp  the drives to place and the link each would get on a slot
///   slots.cpp        usable connectors (public: usable_slots())
///   scoring.cpp      one placement evaluated with the model, and the order of --prefer
///   search.cpp       connector classes, exhaustive and greedy search, the choice
///   advice.cpp       what to avoid
///   current.cpp      --predict's current placement (public: current_problem())
///   planner.cpp      make_plan(): the steps in order
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/common/usb_drives.hpp"
#include "src/analysis/plan/planner.hpp"

namespace usbsat::analysis::plan::detail {

// ---- drive_model.cpp ------------------------------------------------------------------------------------

/// A drive to place: what it can negotiate and how it would run.
struct DriveModel {
  std::string name;
  std::optional<topology::Vertex> block, usb_device;
  topology::UsbSpeed capable = topology::UsbSpeed::SuperPlus2x2;
  bool uas_ok = true;  ///< would bind `uas` on a SuperSpeed connector
  /// nullopt: its link ceiling on the candidate connector; else given, measured or estimated where it is now
  /// (model/demand.hpp), the same on every connector (the drive, not the link, sets it)
  std::optional<Bandwidth> demand;
  topology::Basis basis{model::DemandSource::LinkCeiling};
  std::optional<std::size_t> current;  ///< index into the slot list
  std::optional<std::size_t> current_connector;
};

/// The link a drive would get on a slot.
struct SlotLink {
  topology::Vertex port{};
  bool superspeed = false;
  topology::UsbRate rate = topology::UsbRate::Unknown;
  topology::StorageProtocol protocol = topology::StorageProtocol::Bot;
};

/// The USB3 side at min(drive, port) speed when both are SuperSpeed (UAS when the drive can), else the USB2
/// side; nullopt when the drive cannot connect there (a USB2-only drive on a lone SuperSpeed port).
std::optional<SlotLink> link_on(const PlanSlot& s, const DriveModel& d);

/// The USB drive called `name` ("sdb" or "/dev/sdb") by the one drive rule (common/usb_drives.hpp), or why
/// it cannot be planned or predicted: not a USB drive of the scan, or an empty card-reader slot.
struct NamedDrive {
  std::optional<common::UsbDrive> drive;
  bool no_medium = false;  ///< a USB drive of the scan, but an empty card-reader slot
  std::string problem;  ///< set when `drive` is absent: "not a USB drive of the scanned topology; left out"
};
NamedDrive find_usb_drive(const std::vector<common::UsbDrive>& all, std::string_view name);

/// The drives of a request: connected ones resolved by the one drive rule (common/usb_drives.hpp) to the USB
/// device that moves with them, or N new ones; demands from the request.
struct RequestedDrives {
  std::vector<DriveModel> drives;
  std::vector<topology::Vertex> movable;  ///< USB devices of the drives being re-placed
  std::vector<topology::Diagnostic> diagnostics;
};
RequestedDrives requested_drives(const topology::Topology& t, const PlanRequest& req);

/// Each connected drive's current connector and, when that connector is one of `slots`, its slot index.
void locate_current(const topology::Topology& t, const std::vector<PlanSlot>& slots,
                    std::vector<DriveModel>& drives);

// ---- scoring.cpp ----------------------------------------------------------------------------------------

/// Everything the comparison needs about one evaluated placement.
struct Evaluation {
  std::vector<std::size_t> slots;  ///< per drive, index into the slot list
  std::vector<SlotLink> links;
  Prediction prediction;
  Bandwidth min, total;
  unsigned uas = 0, moves = 0, panels = 0, spread = 0;
  unsigned hubs = 0;  ///< drives behind an external hub (one more shared uplink, one more thing to fail)
  unsigned shared_util =
      0;  ///< highest load/capacity (per mille) of a resource that two planned drives share
  bool valid = false;
};

/// Evaluates placements of drives on slots with the max-min fair model; counts the evaluations.
class Scorer {
 public:
  Scorer(const topology::Topology& t, const topology::CapacityModel& m, const std::vector<PlanSlot>& slots)
      : t_(t), m_(m), slots_(slots) {}

  /// drives[i] on slots_[slots[i]]; invalid when a drive cannot connect to its slot.
  Evaluation evaluate(std::span<const DriveModel> drives, const std::vector<std::size_t>& slots);
  /// The flow problem of drives[i] on links[i]: its own link, then upstream() of its port.
  FlowProblem problem(std::span<const DriveModel> drives, const std::vector<SlotLink>& links);
  /// upstream_resources() of a port, cached.
  const std::vector<topology::Resource>& upstream(topology::Vertex port);

  const topology::Topology& topology() const { return t_; }
  const std::vector<PlanSlot>& slots() const { return slots_; }
  std::size_t evaluated() const { return evaluated_; }

 private:
  const topology::Topology& t_;
  const topology::CapacityModel& m_;
  const std::vector<PlanSlot>& slots_;
  std::map<topology::Vertex, std::vector<topology::Resource>> upstream_;
  std::size_t evaluated_ = 0;
};

/// The order of `--prefer`: true when `a` is the better placement (the objective, then fewer moves, then
/// tie-breakers the model cannot see).
bool better(const Evaluation& a, const Evaluation& b, PlanPreference prefer);
/// True when `a` beats `b` on the objective alone: UAS drives under --prefer uas, then the slowest drive,
/// then the total, at 0.1 MB/s.
bool improves_objective(const Evaluation& a, const Evaluation& b, PlanPreference prefer);

/// Headroom of a predicted placement (see planner.hpp); nullopt unless every drive gets a given demand.
std::optional<Headroom> headroom(const FlowProblem& p, const Prediction& pred);

// ---- search.cpp -----------------------------------------------------------------------------------------

struct SearchResult {
  std::optional<Evaluation> best;
  std::string method;       ///< "exhaustive" or "greedy"
  std::size_t classes = 0;  ///< connector equivalence classes searched
  bool improvable = false;  ///< a placement beats `best` on the objective (--prefer few-moves settled)
};

/// The best placement of `drives` on the scorer's slots under `prefer` (see search.cpp).
SearchResult search(Scorer& scorer, const std::vector<DriveModel>& drives, PlanPreference prefer,
                    std::size_t exhaustive_limit);

// ---- advice.cpp -----------------------------------------------------------------------------------------

/// Connectors to avoid: USB2-only (when `superspeed_drives` and SuperSpeed connectors exist), USB 1.1-only,
/// and shared links that cannot carry two drives at the plan's demand.
std::vector<AvoidNote> avoid_notes(const topology::Topology& t, const std::vector<PlanSlot>& slots,
                                   const Plan& plan, bool superspeed_drives,
                                   const topology::CapacityModel& m);

}  // namespace usbsat::analysis::plan::detail
