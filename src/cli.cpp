#include "src/cli.hpp"

#include <CLI/CLI.hpp>

#include "src/commands.hpp"
#include "src/exit_codes.hpp"

namespace usbsat::cli {
namespace {

constexpr std::string_view kVersion = "usbsat 0.1.0";

/// Options shared by the commands that scan (topo, drives, ports).
void add_scan_options(CLI::App& sub, Invocation& inv) {
  sub.add_option("--mountinfo", inv.scan.mountinfo,
                 "Read mounted filesystems from this file instead of /proc/self/mountinfo (\"\": don't; for fixtures)");
}

constexpr CommandSpec kCommands[] = {
    // {name, summary, configure, run} — one line per command; see src/commands.hpp.
    {"topo", "Show the USB topology tree: PCIe links, controllers, hubs, ports, devices, drives",
     [](CLI::App& sub, Invocation& inv) {
       sub.add_flag("-a,--all", inv.scan.all_devices, "List every empty port instead of a per-hub summary");
       add_scan_options(sub, inv);
     },
     &run_topo},
    {"drives", "List whole disks: connector, hub chain, controller, PCIe uplink, speed, UAS/BOT",
     &add_scan_options, &run_drives},
    {"ports", "List connectors per controller: occupied or empty, speed, location, shared drives",
     &add_scan_options, &run_ports},
    {"doctor", "Find what slows USB storage down (UAS, link speed, hubs, PCIe, tuning) and how to fix it",
     [](CLI::App& sub, Invocation& inv) {
       sub.add_option("--max-sectors-target", inv.doctor.max_sectors_target_kb,
                      "max_sectors_kb to recommend (capped by max_hw_sectors_kb)")
           ->check(CLI::Range(4u, 65536u));
     },
     &run_doctor},
    {"plan", "Where to plug N drives (or re-place connected ones); --predict: shares as plugged now",
     &configure_plan, &run_plan},
    {"load", "Generate I/O load on drives or files (1, 2, 4 at once) and measure it", &configure_load, &run_load},
    {"saturate", "Find shared-bandwidth bottlenecks: drives alone, then 2, 4 at once, and name the link",
     &configure_saturate, &run_saturate},
    {"version", "Print the version", [](CLI::App&, Invocation&) {}, &run_version},
};

}  // namespace

std::span<const CommandSpec> commands() { return kCommands; }

ParseResult parse_args(std::span<const std::string> argv) {
  CLI::App app{"usbsat — USB storage topology, UAS and shared-bandwidth analyser", "usbsat"};
  app.set_version_flag("-V,--version", std::string(kVersion));
  app.require_subcommand(1);
  app.fallthrough();
  Invocation inv;
  app.add_flag("--json", inv.global.json, "Machine-readable JSON on stdout");
  app.add_flag("-v,--verbose", inv.global.verbose, "Also print informational diagnostics");
  app.add_flag("-q,--quiet", inv.global.quiet, "No progress, only errors on stderr");
  app.add_flag("--no-color", inv.global.no_color, "Never colour the output (NO_COLOR is honoured too)");
  for (const auto& cmd : kCommands) {
    auto* sub = app.add_subcommand(std::string(cmd.name), std::string(cmd.summary));
    cmd.configure(*sub, inv);
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
    return {std::nullopt, kExitOk, std::string(kVersion) + "\n"};
  } catch (const CLI::ParseError& e) {
    std::string help;
    for (auto* sub : app.get_subcommands()) help = sub->help();
    if (help.empty()) help = app.help();
    return {std::nullopt, kExitUsage, std::string("usbsat: ") + e.what() + "\n\n" + help};
  }
  return {std::move(inv), kExitOk, {}};
}

}  // namespace usbsat::cli
