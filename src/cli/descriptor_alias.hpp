#pragma once
/// Whether an `-o` path names one of this process's open file descriptors rather than a file: /dev/stdout,
/// /dev/stderr, /dev/stdin, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N and /proc/PID/fd/N with our
/// own PID. Such a path is written through the descriptor itself (at its position, appending when it was
/// opened with O_APPEND, as a shell's `>>` does), never replaced: following the link to the file behind it
/// and renaming a new file over that one would throw away what a `>> log` redirection already holds.
#include <optional>
#include <string_view>

namespace usbsat::cli {

/// The descriptor `path` names, decided from its spelling alone (pure; `pid` is this process's id); nullopt
/// for any other path. "/dev/fd/05" and "/dev/fd/1/" are not descriptor names (the kernel's are canonical).
std::optional<int> descriptor_alias(std::string_view path, long pid);

}  // namespace usbsat::cli
