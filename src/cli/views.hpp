#pragma once
/// The shared steps of `topo`, `drives` and `ports`: scan, say plainly when there is no USB at all,
/// render text or JSON, print diagnostics, choose the exit code. Each cmd_*.cpp names its renderers.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "report/view_input.hpp"
#include "src/cli/command.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

/// Options of every command that scans the system.
struct ScanOptions {
  std::optional<std::string>
      mountinfo;  ///< --mountinfo PATH: mounts from PATH ("": none), not /proc/self/mountinfo
};
void bind_scan_options(CLI::App& sub, ScanOptions& o);
/// The scan with these options: this system, or the recording of --from (src/cli/system_scan.hpp), reading
/// what `detail` says (topology/README.md, "Scan detail").
topology::ScanResult scan(const ScanOptions& o, const GlobalOptions& g,
                          topology::ScanDetail detail = topology::ScanDetail::Full);

/// `usbsat topo|drives|ports`: what to scan and show.
struct ViewOptions {
  ScanOptions scan;
  bool all_devices = false;  ///< topo --all: one line per empty port instead of a per-hub summary
};

/// A pair of pure renderers for one view, and how much each needs scanned. A renderer that prints less than
/// everything may name a lower detail; tests prove its output is the same as from the Full scan on every
/// fixture (tests/topology/scan_umockdev_test.cpp).
struct ViewRenderers {
  std::string (*text)(const report::ViewInput&);
  std::string (*json)(const report::ViewInput&);
  topology::ScanDetail text_detail = topology::ScanDetail::Full;
  topology::ScanDetail json_detail = topology::ScanDetail::Full;
};

/// The notice for a topology without any USB host controller (this machine, CI, containers), pointing at
/// running the command on the sample recording `sample` (or saying none was found); nullopt when there is a
/// controller. Pure.
std::optional<std::string> no_usb_notice(const topology::Topology& t, std::string_view command,
                                         const std::optional<std::filesystem::path>& sample);
/// The same, with the sample found on this system (find_sample_recording("workstation.json")).
std::optional<std::string> no_usb_notice(const topology::Topology& t, std::string_view command);

/// Render an already scanned system: the view on `out`, the notice and diagnostics on `err`. Returns the
/// exit code. Separate from the scan so tests can drive it with in-memory topologies.
/// `style` is how the text may be decorated (colour, width): the default is plain, as for a pipe.
int show_view(const topology::ScanResult& scan, std::string_view command, const ViewOptions& o,
              const GlobalOptions& g, const ViewRenderers& view, std::FILE* out, std::FILE* err,
              const report::TextStyle& style = {});

/// scan() and show_view() on stdout/stderr, styled for stdout's terminal (src/cli/terminal.hpp).
int run_view(std::string_view command, const ViewOptions& o, const GlobalOptions& g,
             const ViewRenderers& view);

}  // namespace usbsat::cli
