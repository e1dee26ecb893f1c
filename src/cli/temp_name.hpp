#pragma once
/// The temporary files write_file_atomically() leaves beside a target while it writes: `.NAME.XXXXXX` (six
/// letters or digits, mkstemp's pattern, also used on Windows). A run killed between the write and the rename
/// (SIGKILL, a power cut) leaves one; the next run that writes NAME removes those older than any run keeps
/// one (kStaleTemporaryAge), and nothing else: not a fresh one (another run may be writing it), not another
/// name, not a directory or a symlink.
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::cli {

/// A run's temporary file lives for one write, fsync and rename: seconds at worst. Ten minutes is beyond any
/// run, and two periods of the shipped 5-minute timer.
inline constexpr std::chrono::minutes kStaleTemporaryAge{10};

/// Whether `candidate` is a temporary file name of target file name `target` (pure).
bool is_own_temporary(std::string_view target, std::string_view candidate);

/// The temporary files of `target` in `dir` that are regular files (not followed through a symlink) last
/// written before `now - kStaleTemporaryAge`; unreadable entries are skipped.
std::vector<std::filesystem::path> stale_temporaries(const std::filesystem::path& dir,
                                                     const std::string& target,
                                                     std::filesystem::file_time_type now);

}  // namespace usbsat::cli
