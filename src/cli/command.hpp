#pragma once
/// A subcommand of usbsat. Each lives in its own cmd_<name>.cpp, which defines
///   Runner configure_<name>(CLI::App& sub);
/// binding its own options to `sub` and returning the entry point that runs with them once parsing
/// succeeded; one line in src/cli/commands.def registers it (name, summary). Nothing else changes.
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace usbsat::cli {

/// Flags every command understands.
struct GlobalOptions {
  bool json = false;      ///< machine-readable output on stdout
  bool verbose = false;   ///< also print info-level diagnostics
  bool quiet = false;     ///< no progress, no diagnostics below errors
  bool no_color = false;  ///< --no-color (NO_COLOR in the environment is honoured by the terminal too)
  /// --from FILE: read-only commands show this recording (usbsat record) instead of the live system
  /// (src/cli/system_scan.hpp); commands that need the real devices refuse it.
  std::optional<std::string> from;
  /// --history PATH|off: the store of measurements (src/cli/history_file.hpp); nullopt: $USBSAT_HISTORY, else
  /// ~/.local/state/usbsat/history.json.
  std::optional<std::string> history;
};

/// A configured command: runs with the options its configure function bound; returns the exit code.
using Runner = std::function<int(const GlobalOptions&)>;

/// One registered subcommand (src/cli/commands.def).
struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  Runner (*configure)(CLI::App& sub);
};

/// The subcommand table, in the order `usbsat --help` lists them (commands.def order).
std::span<const CommandSpec> commands();

/// The usual configure function: own an `Options`, let `bind` register it on `sub`, run `run` with it.
template <class Options>
Runner bind_command(CLI::App& sub, void (*bind)(CLI::App&, Options&),
                    int (*run)(const Options&, const GlobalOptions&)) {
  auto options = std::make_shared<Options>();
  bind(sub, *options);
  return [options, run](const GlobalOptions& g) { return run(*options, g); };
}

}  // namespace usbsat::cli
