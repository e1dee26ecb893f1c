#pragma once
/// What the command line says about the platform it runs on: for the "no USB host controller" notice
/// (views.cpp) where the scan looked and where the sample recordings to try with --from may be (samples.hpp);
/// for `record` and `report` this machine's name. platform_text_posix.cpp (Linux) and win32/platform_text.cpp
/// (Windows).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::cli {

/// Completes "no USB host controller found …": "under /sys (no /sys/bus/usb: …)" on Linux.
std::string_view no_usb_where();

/// The running program's own path (/proc/self/exe on Linux, GetModuleFileNameW on Windows); nullopt when
/// unknown.
std::optional<std::filesystem::path> executable_path();

/// The sample recordings' folders this build was configured with (samples.hpp tries them after the one beside
/// the program): the install folder and the source tree's samples on Linux; none on Windows.
std::vector<std::filesystem::path> configured_sample_dirs();

/// Where per-user state lives (the history store's folder is `<this>/usbsat`): $XDG_STATE_HOME when it is
/// an absolute path, else ~/.local/state; for root (also under sudo, whose environment may still name the
/// invoking user's folders) root's own ~/.local/state. Windows: %LOCALAPPDATA%. nullopt when none is known.
std::optional<std::filesystem::path> state_home();

/// This machine's host name (gethostname on Linux, the DNS host name on Windows); nullopt when it cannot be
/// read.
std::optional<std::string> host_name();

}  // namespace usbsat::cli
