#include "src/cli/history_context.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "src/cli/history_file.hpp"
#include "topology/history/store_json.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {

HistoryContext read_history_context(const GlobalOptions& g, const topology::ScanResult& scan) {
  HistoryContext out;
  out.model = topology::nominal_model();
  auto say = [&](const std::string& where, const std::string& problem) {
    if (!g.quiet)
      fmt::print(stderr, "usbsat: the history in {} is not used: {}\n", topology::escape_unprintable(where),
                 topology::escape_unprintable(problem));
  };
  if (g.from && !g.history) {
    // A recording is another machine (or this one, then): only what it carries describes its drives.
    if (scan.recorded_history) {
      auto parsed = history::parse_store_text(*scan.recorded_history);
      if (parsed.store)
        out.store = std::move(*parsed.store);
      else
        say(*g.from, parsed.error);
      out.origin = "the recording";
    }
  } else if (const auto where = history_location(g); where.path) {
    auto loaded = read_history_file(*where.path);
    if (loaded.problem) say(*where.path, *loaded.problem);
    out.store = std::move(loaded.store);
    out.origin = *where.path;
  }
  out.model.calibrated = history::calibrations(out.store);
  return out;
}

}  // namespace usbsat::cli
