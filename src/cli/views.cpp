#include "src/cli/views.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <filesystem>

#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/platform_text.hpp"
#include "src/cli/samples.hpp"
#include "src/cli/system_scan.hpp"
#include "src/cli/terminal.hpp"

namespace usbsat::cli {

void bind_scan_options(CLI::App& sub, ScanOptions& o) {
  sub.add_option(
      "--mountinfo", o.mountinfo,
      "Read mounted filesystems from this file instead of /proc/self/mountinfo (\"\": don't; for fixtures)");
}

topology::ScanResult scan(const ScanOptions& o, const GlobalOptions& g, topology::ScanDetail detail) {
  // One bad device is a diagnostic; no /sys throws ScanError, which main.cpp maps to kExitEnvironment.
  topology::ScanConfig config;
  config.detail = detail;
  if (o.mountinfo) config.mountinfo_path = *o.mountinfo;
  return scan_for(g, config);
}

std::optional<std::string> no_usb_notice(const topology::Topology& t, std::string_view command,
                                         const std::optional<std::filesystem::path>& sample) {
  if (!t.controllers().empty()) return std::nullopt;
  std::string out = fmt::format("usbsat: no USB host controller found {}.\n", no_usb_where());
  if (!sample)
    return out +
           "usbsat: no sample recording was found beside this program to try instead (usbsat's source tree "
           "has "
           "them in topology/recording/samples)\n";
  return out + fmt::format(
                   "usbsat: to see what {} shows on a real machine layout, run it on a sample recording:\n"
                   "usbsat:   usbsat --from {} {}\n",
                   command, sample->string(), command);
}

std::optional<std::string> no_usb_notice(const topology::Topology& t, std::string_view command) {
  if (!t.controllers().empty()) return std::nullopt;
  return no_usb_notice(t, command, find_sample_recording("workstation.json"));
}

int show_view(const topology::ScanResult& scan, std::string_view command, const ViewOptions& o,
              const GlobalOptions& g, const ViewRenderers& view, std::FILE* out, std::FILE* err,
              const report::TextStyle& style) {
  // 1. No controller at all: say so before anything else, so nobody mistakes an empty tree for an answer.
  if (auto notice = no_usb_notice(scan.topology, command)) std::fputs(notice->c_str(), err);
  // 2. The view itself: JSON carries the diagnostics inside, text leaves them to stderr.
  const report::ViewInput in{scan.topology, scan.diagnostics, o.all_devices, style};
  const std::string body = g.json ? view.json(in) : view.text(in);
  std::fputs(body.c_str(), out);
  std::fflush(out);
  // 3. Diagnostics on stderr in both modes (verbosity-aware), and an exit code that reflects errors.
  print_diagnostics(err, scan.diagnostics, g);
  return exit_code_for(scan.diagnostics);
}

int run_view(std::string_view command, const ViewOptions& o, const GlobalOptions& g,
             const ViewRenderers& view) {
  return show_view(scan(o.scan, g, g.json ? view.json_detail : view.text_detail), command, o, g, view, stdout,
                   stderr, terminal_for(kStdoutFd, g.no_color).style());
}

}  // namespace usbsat::cli
