#pragma once
/// Where every `-o PATH` goes (export, report, record and any later command): one rule, written once. What
/// the path *is* decides, in this order:
///   - `-`: standard output (main's check_output() then checks that it was written);
///   - a name of one of our open descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N; a symlink to one):
///     written through that descriptor, at its position or appended when it is open for appending (`>>`),
///     whatever is behind it (atomic_file.hpp's write_descriptor; descriptor_alias.hpp);
///   - "" or a directory: OutputError with exit 2 (a usage error, said in a sentence);
///   - a regular file, or nothing yet: replaced atomically (write_file_atomically: a temporary file in
///     the same directory, fsync, rename), so a full disk or any write error keeps the old content; a
///     replaced file keeps its mode (and owner where permitted), a new one is 0644 or, for `access`
///     kPrivate, 0600;
///     through a symlink, the file it points to is replaced, never the link;
///   - anything else that exists (a character or block device, a FIFO, a socket, a symlink to one):
///     written through, as a shell redirection would, and never replaced
///     (atomic_file.hpp's write_through).
/// A failure to write is OutputError with exit 3 (environment), caught in main.cpp.
#include <stdexcept>
#include <string>
#include <string_view>

#include "src/cli/atomic_file.hpp"

namespace usbsat::cli {

/// The output could not be written where `-o` said; `code()` is the exit code (kExitUsage or
/// kExitEnvironment).
class OutputError : public std::runtime_error {
 public:
  OutputError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// Write `content` to `path` by the rule above; throws OutputError.
void write_output(const std::string& path, std::string_view content,
                  NewFileAccess access = NewFileAccess::kShared);

}  // namespace usbsat::cli
