#pragma once
/// Where the shipped sample recordings (topology/recording/samples) are, wherever usbsat runs from: an
/// installed layout, a build tree or a relocated copy. The "no USB" notice names one, so its hint must be a
/// file that exists.
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace usbsat::cli {

/// The folders that may hold the samples, in the order they are tried: <prefix>/share/usbsat/recordings
/// beside the running program (<prefix>/bin/usbsat; any install prefix, DESTDIR included), the configured
/// install folder, the source tree the program was built from (a build tree's usbsat). Pure.
std::vector<std::filesystem::path> sample_dir_candidates(
    const std::optional<std::filesystem::path>& executable,
    const std::vector<std::filesystem::path>& configured);

/// The first candidate that holds `file`, as `exists` says; nullopt when none does. Pure.
std::optional<std::filesystem::path> first_holding(
    const std::vector<std::filesystem::path>& candidates, const std::filesystem::path& file,
    const std::function<bool(const std::filesystem::path&)>& exists);

/// The sample recording `name` ("workstation.json") on this system, or nullopt when no sample folder is
/// found.
std::optional<std::filesystem::path> find_sample_recording(const std::filesystem::path& name);

}  // namespace usbsat::cli
