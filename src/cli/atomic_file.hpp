#pragma once
/// Replacing a file so that a reader sees the old content or the new one, never a torn mix: what the
/// node_exporter textfile collector needs (it may read usbsat.prom at any moment while a timer rewrites it).
/// And writing into what is not a file (a device, a FIFO, an open descriptor) without replacing it.
/// output_file.hpp says which.
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::cli {

/// The mode of a file that does not exist yet: 0644, or 0600 for one that holds what others must not read
/// (`record --keep-serials`: serial numbers). A replaced file keeps its own mode (and owner where permitted).
enum class NewFileAccess { kShared, kPrivate };

/// Write `content` to a temporary file in the directory of `path` (same filesystem, temp_name.hpp's name),
/// fsync it, give it the old file's mode and owner (or `access`'s mode when there is no old file), rename it
/// over `path` and fsync the directory (atomic_file_posix.cpp; on Windows, win32/atomic_file.cpp:
/// FlushFileBuffers, then MoveFileExW with MOVEFILE_REPLACE_EXISTING | WRITE_THROUGH). Stale temporary files
/// of `path` left by killed runs are removed first (temp_name.hpp). SIGINT and SIGTERM wait from the
/// temporary file's creation until it is renamed or removed (POSIX), so a Ctrl-C leaves none behind.
/// nullopt on success; else a message naming the step and the reason ("cannot create a temporary file in
/// /x: Permission denied"), and no temporary file is left behind.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content,
                                                 NewFileAccess access = NewFileAccess::kShared);

/// Write `content` into the existing non-regular file at `path` (a device, a FIFO, a socket; a symlink to
/// one) as a shell redirection would: opened for writing only, never created, truncated, renamed or chmod-ed
/// (POSIX: open O_WRONLY; Windows: CreateFileW OPEN_EXISTING). Throws OutputError (output_file.hpp, exit 3).
void write_through(const std::string& path, std::string_view content);

/// The open descriptor `path` names (descriptor_alias.hpp), following symlinks one step at a time on POSIX
/// (a link to /dev/stdout names descriptor 1 too); nullopt for any other path.
std::optional<int> named_descriptor(const std::string& path);

/// Write `content` through open descriptor `fd` (named `path` in messages): at its position, or at the end
/// when it was opened for appending; stdout and stderr are flushed first. Throws OutputError (exit 3).
void write_descriptor(int fd, const std::string& path, std::string_view content);

}  // namespace usbsat::cli
