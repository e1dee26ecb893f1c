#pragma once
/// What the command line says about the platform it runs on: for the "no USB host controller" notice
/// (views.cpp) where the scan looked and where the sample recordings to try with --from are installed; for
/// `record` and `report` this machine's name.
/// platform_text_posix.cpp (Linux) and win32/platform_text.cpp (Windows).
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::cli {

/// Completes "no USB host controller found …": "under /sys (no /sys/bus/usb: …)" on Linux.
std::string_view no_usb_where();

/// The folder of the installed sample recordings (topology/recording/samples): the configured data directory on
/// Linux; on Windows share\usbsat\recordings beside the bin folder usbsat.exe runs from.
std::string sample_recordings_dir();

/// This machine's host name (gethostname on Linux, the DNS host name on Windows); nullopt when it cannot be read.
std::optional<std::string> host_name();

}  // namespace usbsat::cli
