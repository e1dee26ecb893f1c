#pragma once
/// The topology picture of `topo --dot` and `report`: the scanned topology with the doctor's findings and the
/// model's predicted shares, as report::GraphModel. One place, so both commands draw the same graph.
#include <vector>

#include "report/finding.hpp"
#include "report/graph_model.hpp"
#include "report/plan_report.hpp"
#include "src/cli/history_context.hpp"
#include "topology/model/topology.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

/// What the picture shows besides the topology (empty without a USB controller).
struct PictureFacts {
  std::vector<report::Finding> findings;  ///< the doctor's, in its order
  std::size_t drives_checked = 0;         ///< USB drives with media
  report::PredictInput predict;           ///< plan --predict of every USB drive
};

/// Run the doctor (with this system's /sys/module facts) and the prediction on `t`.
PictureFacts gather_picture_facts(const topology::ScanResult& scan, const HistoryContext& h);

/// Graphviz's `dot` took 1.3 s for the 891 nodes of the `large` fixture and 10 s for 2,662 (growing about as
/// the square of the nodes, 2-core VM): `report` leaves out a picture of more nodes than this, with a notice,
/// so a machine of thousands of devices still gets its page in seconds.
inline constexpr std::size_t kMaxPictureNodes = 1200;

/// The picture of `t` with `facts`.
report::GraphModel topology_picture(const topology::Topology& t, const PictureFacts& facts, bool show_all);

}  // namespace usbsat::cli
