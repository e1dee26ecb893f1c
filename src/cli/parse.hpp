#pragma once
/// Command-line parsing: a pure function from argv to an Invocation (the shape of ninja's kTools table:
/// src/cli/commands.def). Each command binds its own options.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/cli/command.hpp"

namespace usbsat::cli {

/// A parsed command line, ready to run.
struct Invocation {
  std::string command;  ///< the subcommand's name
  GlobalOptions global;
  Runner runner;  ///< the command with its parsed options
  int run() const { return runner(global); }
};

/// Outcome of parsing: either an invocation to run, or text to print and an exit code (help, version,
/// usage errors).
struct ParseResult {
  std::optional<Invocation> invocation;
  int exit_code = 0;
  std::string output;   ///< help/version text (stdout) or an error message (stderr when exit_code != 0)
  std::string message;  ///< a usage error in one sentence, without "usbsat: " and the help (for --json)
  bool json = false;    ///< --json appeared on the command line (a usage error is then also a JSON document)
};

/// Bind the global options (--json, -v, -q, --no-color, --from, -V) to `g` on `app`: the one list of them,
/// read by the parser, the "no command" message and `usbsat completion`.
void bind_global_options(CLI::App& app, GlobalOptions& g);

/// The global options' spellings: `flags` take no value ("--json", "-v", ...; -h/--help and -V/--version
/// included), `valued` take one ("--from").
struct GlobalOptionNames {
  std::vector<std::string> flags, valued;
};
GlobalOptionNames global_option_names();

/// Parse argv (argv[0] included). Pure: prints nothing, exits nothing.
ParseResult parse_args(std::span<const std::string> argv);

/// "usbsat 0.1.0".
std::string_view version_string();

}  // namespace usbsat::cli
