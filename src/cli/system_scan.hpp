#pragma once
/// The one scan every read-only command shows (topo, drives, ports, doctor, plan, and any command added
/// later: call scan_for(), never topology::scan_system() — the test cli.one_scan_path checks): this system's
/// devices, or with the global --from FILE the recording in FILE (usbsat record), on any platform.
#include <optional>
#include <string_view>

#include "src/cli/command.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::cli {

/// scan_system(config), or the recording of --from scanned with `config`. A bad recording throws
/// topology::recording::RecordingError (main.cpp: exit 3, "cannot read the recording").
topology::ScanResult scan_for(const GlobalOptions& g, const topology::ScanConfig& config = {});

/// For commands that need the real devices (load, saturate, record): with --from, say so and return the
/// usage exit code (2); nullopt without --from.
std::optional<int> refuse_recording(const GlobalOptions& g, std::string_view command);

}  // namespace usbsat::cli
