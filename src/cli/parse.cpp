#include "src/cli/parse.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>

#include "src/cli/exit_codes.hpp"

namespace usbsat::cli {

std::string_view version_string() { return "usbsat " USBSAT_VERSION; }

ParseResult parse_args(std::span<const std::string> argv) {
  CLI::App app{"usbsat — USB storage topology, UAS and shared-bandwidth analyser", "usbsat"};
  app.set_version_flag("-V,--version", std::string(version_string()));
  app.require_subcommand(1);
  app.fallthrough();
  Invocation inv;
  app.add_flag("--json", inv.global.json, "Machine-readable JSON on stdout");
  app.add_flag("-v,--verbose", inv.global.verbose, "Also print informational diagnostics");
  app.add_flag("-q,--quiet", inv.global.quiet, "No progress, only errors on stderr");
  app.add_flag("--no-color", inv.global.no_color, "Never colour the output (NO_COLOR is honoured too)");
  // Every command binds its options now; only the chosen one's runner is kept.
  std::vector<std::pair<std::string_view, Runner>> runners;
  for (const auto& cmd : commands()) {
    auto* sub = app.add_subcommand(std::string(cmd.name), std::string(cmd.summary));
    runners.emplace_back(cmd.name, cmd.configure(*sub));
    sub->callback([&inv, name = cmd.name] { inv.command = std::string(name); });
  }

  std::vector<std::string> args(argv.begin() + (argv.empty() ? 0 : 1), argv.end());
  std::reverse(args.begin(), args.end());  // CLI11 consumes a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, kExitOk, app.help()};
  } catch (const CLI::CallForAllHelp&) {
    return {std::nullopt, kExitOk, app.help("", CLI::AppFormatMode::All)};
  } catch (const CLI::CallForVersion&) {
    return {std::nullopt, kExitOk, std::string(version_string()) + "\n"};
  } catch (const CLI::ParseError& e) {
    std::string help;
    for (auto* sub : app.get_subcommands()) help = sub->help();
    if (help.empty()) help = app.help();
    return {std::nullopt, kExitUsage, std::string("usbsat: ") + e.what() + "\n\n" + help};
  }
  for (auto& [name, runner] : runners)
    if (name == inv.command) inv.runner = std::move(runner);
  return {std::move(inv), kExitOk, {}};
}

}  // namespace usbsat::cli
