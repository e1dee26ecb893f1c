#pragma once
/// Replacing a file so that a reader sees the old content or the new one, never a torn mix: what the
/// node_exporter textfile collector needs (it may read usbsat.prom at any moment while a timer rewrites it).
/// And writing into what is not a file (a device, a FIFO) without replacing it. output_file.hpp says which.
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::cli {

/// Write `content` to a temporary file in the directory of `path` (same filesystem), fsync it, make it
/// mode 0644, rename it over `path` and fsync the directory (atomic_file_posix.cpp; on Windows,
/// win32/atomic_file.cpp: FlushFileBuffers, then MoveFileExW with MOVEFILE_REPLACE_EXISTING | WRITE_THROUGH).
/// nullopt on success; else a message naming the step and the reason ("cannot create a temporary file in
/// /x: Permission denied"), and no temporary file is left behind.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content);

/// Write `content` into the existing non-regular file at `path` (a device, a FIFO, a socket; a symlink to
/// one) as a shell redirection would: opened for writing only, never created, truncated, renamed or chmod-ed
/// (POSIX: open O_WRONLY; Windows: CreateFileW OPEN_EXISTING). Throws OutputError (output_file.hpp, exit 3).
void write_through(const std::string& path, std::string_view content);

}  // namespace usbsat::cli
