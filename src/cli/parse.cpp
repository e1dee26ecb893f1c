#include "src/cli/parse.hpp"

#include <algorithm>
#include <iterator>

#include <CLI/CLI.hpp>

#include "src/cli/exit_codes.hpp"
#include "topology/base/text.hpp"

namespace usbsat::cli {

std::string_view version_string() {
  return "usbsat " USBSAT_VERSION;
}

namespace {

/// A global flag, or a global option with its value attached ("--from=x").
bool is_global_flag(const GlobalOptionNames& names, std::string_view a) {
  if (std::find(names.flags.begin(), names.flags.end(), a) != names.flags.end()) return true;
  return std::any_of(names.valued.begin(), names.valued.end(),
                     [&](const std::string& o) { return a.starts_with(o + "="); });
}
/// A global option followed by its value.
bool is_global_option(const GlobalOptionNames& names, std::string_view a) {
  return std::find(names.valued.begin(), names.valued.end(), a) != names.valued.end();
}

/// --json anywhere before a "--" (args are reversed, as CLI11 consumes them).
bool json_requested(const std::vector<std::string>& reversed) {
  for (auto it = reversed.rbegin(); it != reversed.rend() && *it != "--"; ++it)
    if (*it == "--json") return true;
  return false;
}

std::string command_list() {
  std::vector<std::string> names;
  for (const auto& c : commands()) names.emplace_back(c.name);
  return topology::join(names, ", ");
}

/// No subcommand was recognised: name the word or option that is not one, or say that one is needed.
std::string no_command_message(const std::vector<std::string>& reversed) {
  const auto names = global_option_names();
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
    if (is_global_flag(names, *it)) continue;
    if (is_global_option(names, *it)) {
      if (std::next(it) == reversed.rend())
        return *it == "--history" ? "--history needs a file or off"
                                  : "--from needs a recording file (usbsat record -o FILE)";
      ++it;
      continue;
    }
    if (it->starts_with("-"))
      return "unknown option '" + *it + "' before the command; the commands are: " + command_list();
    return "unknown command '" + *it + "'; the commands are: " + command_list();
  }
  return "a command is required: " + command_list();
}

}  // namespace

void bind_global_options(CLI::App& app, GlobalOptions& g) {
  app.set_version_flag("-V,--version", std::string(version_string()));
  app.add_flag("--json", g.json, "Machine-readable JSON on stdout");
  app.add_flag("-v,--verbose", g.verbose, "Also print informational diagnostics");
  app.add_flag("-q,--quiet", g.quiet, "No progress, only errors on stderr");
  app.add_flag("--no-color", g.no_color, "Never colour the output (NO_COLOR is honoured too)");
  app.add_option(
         "--from", g.from,
         "Show a recording (usbsat record -o FILE) instead of this system's devices; read-only commands")
      ->type_name("FILE");
  app.add_option("--history", g.history,
                 "The store of measured drives and links (`off`: none); default $USBSAT_HISTORY, else "
                 "~/.local/state/usbsat/history.json")
      ->type_name("PATH|off")
      ->check(CLI::Validator(
          [](std::string& v) {
            return v.empty() ? std::string("'' is not a file name: give a file or off") : std::string();
          },
          ""));
}

GlobalOptionNames global_option_names() {
  CLI::App app;
  GlobalOptions scratch;
  bind_global_options(app, scratch);
  GlobalOptionNames out;
  for (const CLI::Option* o : app.get_options()) {
    auto& into = o->get_items_expected_max() == 0 ? out.flags : out.valued;
    for (const auto& n : o->get_lnames()) into.push_back("--" + n);
    for (const auto& n : o->get_snames()) into.push_back("-" + n);
  }
  return out;
}

ParseResult parse_args(std::span<const std::string> argv) {
  CLI::App app{"usbsat — USB storage topology, UAS and shared-bandwidth analyser", "usbsat"};
  app.require_subcommand(1);
  app.fallthrough();
  // One command line on every platform: CLI11 reads "/x" as an option on Windows by default, which made a
  // target such as //./PhysicalDrive1 (a form usbsat accepts for \\.\PhysicalDrive1) a usage error there.
  app.allow_windows_style_options(false);
  Invocation inv;
  bind_global_options(app, inv.global);
  // Every command binds its options now; only the chosen one's runner is kept.
  std::vector<std::pair<std::string_view, Runner>> runners;
  for (const auto& cmd : commands()) {
    auto* sub = app.add_subcommand(std::string(cmd.name), std::string(cmd.summary));
    runners.emplace_back(cmd.name, cmd.configure(*sub));
    sub->callback([&inv, name = cmd.name] { inv.command = std::string(name); });
  }

  std::vector<std::string> args(argv.begin() + (argv.empty() ? 0 : 1), argv.end());
  std::reverse(args.begin(), args.end());  // CLI11 consumes a reversed vector
  const std::vector<std::string> given = args;
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
    std::string message = e.what();
    if (app.get_subcommands().empty()) message = no_command_message(given);
    return {std::nullopt, kExitUsage, "usbsat: " + message + "\n\n" + help, message, json_requested(given)};
  }
  for (auto& [name, runner] : runners)
    if (name == inv.command) inv.runner = std::move(runner);
  const bool json = inv.global.json;
  return {std::move(inv), kExitOk, {}, {}, json};
}

}  // namespace usbsat::cli
