#pragma once
/// The shared steps of `topo`, `drives` and `ports`: scan, say plainly when there is no USB at all,
/// render text or JSON, print diagnostics, choose the exit code. Each cmd_*.cpp names its renderers.
#include <cstdio>
#include <optional>
#include <string>

#include "report/view_input.hpp"
#include "src/options.hpp"
#include "topology/scan.hpp"

namespace usbsat::cli {

/// A pair of pure renderers for one view.
struct ViewRenderers {
  std::string (*text)(const report::ViewInput&);
  std::string (*json)(const report::ViewInput&);
};

/// The notice for a topology without any USB host controller (this machine, CI, containers), pointing at
/// running usbsat on a recorded fixture; nullopt when there is a controller. Pure.
std::optional<std::string> no_usb_notice(const topology::Topology& t, std::string_view command);

/// Render an already scanned system: the view on `out`, the notice and diagnostics on `err`. Returns the
/// exit code. Separate from the scan so tests can drive it with in-memory topologies.
int show_view(const topology::ScanResult& scan, const Invocation& inv, const ViewRenderers& view, std::FILE* out,
              std::FILE* err);

/// scan_system() and show_view() on stdout/stderr.
int run_view(const Invocation& inv, const ViewRenderers& view);

}  // namespace usbsat::cli
