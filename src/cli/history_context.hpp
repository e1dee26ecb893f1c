#pragma once
/// What the read-only commands predict with (plan, plan --predict, doctor, report, export, topo --dot,
/// watch): the history of measurements — a `--from` recording's own when it carries one (so the recorded
/// machine's plan is reproduced), else the store file (history_file.hpp) — and the capacity model with the
/// plateaus `saturate` measured in place of the table's figures.
#include <string>

#include "src/cli/command.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/history/store.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

struct HistoryContext {
  history::Store store;
  topology::CapacityModel model;  ///< the nominal model with the store's calibrations
  std::string origin;             ///< where the store came from: its path, "the recording", "" when off
};

/// The context for `scan`. A store that could not be used is said in one line on stderr (not with -q) and
/// counts as empty.
HistoryContext read_history_context(const GlobalOptions& g, const topology::ScanResult& scan);

}  // namespace usbsat::cli
