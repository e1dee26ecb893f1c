// write_output(): the `-o` rule. Which way a path is written is decided here, for every platform; the writing
// itself is atomic_file.hpp's (atomic_file_posix.cpp, win32/atomic_file.cpp).
#include "src/cli/output_file.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "src/cli/atomic_file.hpp"
#include "src/cli/exit_codes.hpp"

namespace usbsat::cli {

void write_output(const std::string& path, std::string_view content, NewFileAccess access) {
  if (path.empty())
    throw OutputError(kExitUsage, "-o '' is not a file name: give one, or - for standard output");
  if (path == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    return;
  }
  // An open descriptor's name (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is written through that descriptor,
  // whatever is behind it: following it to a regular file and replacing that would lose what a `>> log`
  // redirection holds, and ignore its position.
  if (const auto fd = named_descriptor(path)) return write_descriptor(*fd, path, content);
  // status() follows symlinks (/dev/stdout is what it points to); an error here (no such file yet, a missing
  // folder) is left to the atomic write, which names the step that failed.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st))
    throw OutputError(kExitUsage, fmt::format("-o {} is a directory: give a file name", path));
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    return write_through(path, content);
  // A symlink to a file (or to a name not taken yet) has its target replaced, never the link.
  std::string target = path;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
    target = std::filesystem::weakly_canonical(path, ec).string();
    if (ec)
      throw OutputError(kExitEnvironment, fmt::format("cannot follow the link {}: {}", path, ec.message()));
  }
  if (auto error = write_file_atomically(target, content, access))
    throw OutputError(kExitEnvironment, fmt::format("cannot write {}: {}", path, *error));
}

}  // namespace usbsat::cli
