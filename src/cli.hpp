#pragma once
/// Command-line parsing: a pure function from argv to an Invocation, and the table of subcommands
/// (the shape of ninja's kTools). Each command binds its own options struct inside Invocation.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/options.hpp"

namespace CLI {
class App;
}

namespace usbsat::cli {

/// One subcommand: its name, one-line summary, option binding and entry point.
struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  void (*configure)(CLI::App& sub, Invocation& inv);
  int (*run)(const Invocation& inv);
};

/// The subcommand table, in the order `usbsat --help` lists them.
std::span<const CommandSpec> commands();

/// Outcome of parsing: either an invocation to run, or text to print and an exit code (help, version,
/// usage errors).
struct ParseResult {
  std::optional<Invocation> invocation;
  int exit_code = 0;
  std::string output;  ///< help/version text (stdout) or an error message (stderr when exit_code != 0)
};

/// Parse argv (argv[0] included). Pure: prints nothing, exits nothing.
ParseResult parse_args(std::span<const std::string> argv);

}  // namespace usbsat::cli
