#pragma once
/// The history store's file (topology/history/store.hpp): where it is, reading it, and adding to it so that
/// nothing is lost.
///   - where: `--history PATH|off`, else $USBSAT_HISTORY (PATH|off), else <state_home()>/usbsat/history.json
///     (~/.local/state/usbsat/history.json; platform_text.hpp);
///   - reading: a missing file is an empty store; a corrupt, truncated, foreign-version or hostile one
///     (store_json.hpp's strict reader) is reported in one line and ignored;
///   - adding: under an exclusive lock on PATH.lock, read what is there, merge, replace atomically
///     (atomic_file.hpp): two usbsat processes adding at once lose nothing. A store that cannot be read is
///     never overwritten (`usbsat history forget all` starts it anew); a read-only or full disk is a message.
#include <functional>
#include <optional>
#include <string>

#include "src/cli/command.hpp"
#include "topology/history/store.hpp"

namespace usbsat::cli {

/// Where the store is; `path` nullopt: off (`why` says why: "--history off", "no home folder").
struct HistoryLocation {
  std::optional<std::string> path;
  std::string why;
};
HistoryLocation history_location(const GlobalOptions& g);

/// A store read from its file. `problem`: one sentence when the file exists but was not used.
struct LoadedHistory {
  history::Store store;
  std::optional<std::string> problem;
  bool exists = false;
};
LoadedHistory read_history_file(const std::string& path);

/// Apply `change` to the store at `path` under its lock and write it back atomically (the folder is made
/// when missing). nullopt on success, else why nothing was written.
std::optional<std::string> update_history_file(const std::string& path,
                                               const std::function<void(history::Store&)>& change);
/// Replace the store at `path` with `s` under its lock, whatever was there (`history forget all`).
std::optional<std::string> replace_history_file(const std::string& path, const history::Store& s);

}  // namespace usbsat::cli
