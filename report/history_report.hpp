#pragma once
/// `usbsat history`: what the store remembers (topology/history/store.hpp), as text and as JSON (the store's
/// own document with where it is: report/schemas/history.schema.json).
#include <optional>
#include <string>

#include "report/style.hpp"
#include "topology/history/store.hpp"

namespace usbsat::report {

struct HistoryReportInput {
  std::optional<std::string> path;     ///< the store's file; nullopt: the history is off
  std::string why_off;                 ///< when off: why ("--history off")
  std::optional<std::string> problem;  ///< the file exists but was not read: why
  const history::Store* store = nullptr;
  TextStyle style{};
};

/// {"path", "enabled", "problem", "format", "version", "drives", "resources"}.
std::string render_history_json(const HistoryReportInput& in);
/// Where the store is, then each drive's measurements (newest first) and each link's measured capacity.
std::string render_history_text(const HistoryReportInput& in);

}  // namespace usbsat::report
