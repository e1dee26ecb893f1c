// `usbsat history`: what usbsat remembers of the drives and links it measured (topology/history), and
// `history forget DEV|KEY|all`.
#include "src/cli/cmd_history.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "report/history_report.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/history_file.hpp"
#include "src/cli/history_record.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"
#include "topology/base/text.hpp"
#include "topology/history/identity.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::cli {
namespace {

int list_history(const GlobalOptions& g) {
  const auto where = history_location(g);
  report::HistoryReportInput in;
  in.path = where.path;
  in.why_off = where.why;
  in.style = terminal_for(kStdoutFd, g.no_color).style();
  LoadedHistory loaded;
  if (where.path) loaded = read_history_file(*where.path);
  in.problem = loaded.problem;
  in.store = &loaded.store;
  const std::string out = g.json ? report::render_history_json(in) : report::render_history_text(in);
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

/// The store key `what` names: a key (or a unique prefix of one) in `s`, else a connected drive's identity.
std::optional<std::string> key_named(const GlobalOptions& g, const history::Store& s,
                                     const std::string& what) {
  std::optional<std::string> found;
  for (const auto& d : s.drives)
    if (d.key.starts_with(what)) {
      if (found) return std::nullopt;  // ambiguous
      found = d.key;
    }
  if (found) return found;
  const auto scan = scan_for(g);
  const auto& t = scan.topology;
  auto v = t.find_by_name(std::string(topology::strip_dev_prefix(what)));
  if (!v || t[*v].kind != topology::NodeKind::Block) v = usb_block_of_path(t, what);
  if (!v) return std::nullopt;
  const auto id = history::drive_identity(t, *v);
  return id ? std::optional(id->key) : std::nullopt;
}

int forget(const GlobalOptions& g, const std::string& what) {
  const auto where = history_location(g);
  if (!where.path)
    return fail(g, kExitUsage, "history", "the history is off (" + where.why + "): nothing to forget");
  if (what == "all") {
    if (auto e = replace_history_file(*where.path, {})) return fail(g, kExitEnvironment, "history", *e);
    if (!g.quiet)
      fmt::print(stderr, "usbsat history: forgot everything in {}\n",
                 topology::escape_unprintable(*where.path));
    return kExitOk;
  }
  const auto loaded = read_history_file(*where.path);
  const auto key = key_named(g, loaded.store, what);
  if (!key)
    return fail(g, kExitUsage, "history",
                "'" + what + "' is neither a drive of this system nor the key of one drive in the history");
  bool forgot = false;
  if (auto e = update_history_file(*where.path,
                                   [&](history::Store& s) { forgot = history::forget_drive(s, *key); }))
    return fail(g, kExitEnvironment, "history", *e);
  if (!g.quiet)
    fmt::print(stderr, "usbsat history: {} {}\n", forgot ? "forgot" : "nothing was remembered of",
               topology::escape_unprintable(what == *key ? what : what + " (" + *key + ")"));
  return kExitOk;
}

int run_history(const HistoryOptions& o, const GlobalOptions& g) {
  const auto& w = o.words;
  if (w.empty() || (w.size() == 1 && w[0] == "list")) return list_history(g);
  if (w.size() == 2 && w[0] == "forget") return forget(g, w[1]);
  if (!w.empty() && w[0] == "forget")
    return fail(g, kExitUsage, "history", "give one drive to forget (sdb, /dev/sdb or a key), or all");
  return fail(g, kExitUsage, "history",
              "unknown words '" + topology::join(w, " ") + "': give list, or forget DEV|all");
}

}  // namespace

void bind_history_options(CLI::App& sub, HistoryOptions& o) {
  sub.add_option("words", o.words, "list (default) | forget DEV|KEY|all");
}

Runner configure_history(CLI::App& sub) {
  return bind_command<HistoryOptions>(sub, &bind_history_options, &run_history);
}

}  // namespace usbsat::cli
