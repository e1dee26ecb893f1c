// write_file_atomically() on Windows: a temporary file beside the target (CreateFileW, CREATE_NEW), written
// and flushed (FlushFileBuffers), then moved over the target (MoveFileExW, MOVEFILE_REPLACE_EXISTING |
// MOVEFILE_WRITE_THROUGH: the rename is on disk when it returns). write_through(): CreateFileW OPEN_EXISTING.
// A replaced file's security (its ACL) is the directory's inherited one, as for a new file: NewFileAccess has
// no mode to set here. A descriptor name (/dev/stdout, /dev/fd/N) is only its spelling: Windows has no such
// links.
#include <io.h>
#include <process.h>
#include <windows.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "src/cli/atomic_file.hpp"
#include "src/cli/descriptor_alias.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/temp_name.hpp"
#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::cli {
namespace {

std::string failed(std::string_view what, const std::string& where, DWORD err) {
  char buf[256] = {};
  const DWORD n = ::FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, err,
                                   0, buf, sizeof buf, nullptr);
  std::string text(buf, n);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == '.')) text.pop_back();
  if (text.empty()) text = fmt::format("Windows error {}", err);
  return fmt::format("cannot {} {}: {}", what, where, text);
}

/// Write all of `content` to `f`: true, or false with GetLastError() set.
bool write_all(HANDLE f, std::string_view content) {
  for (std::size_t done = 0; done < content.size();) {
    const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(content.size() - done, 1u << 30));
    DWORD n = 0;
    if (!::WriteFile(f, content.data() + done, chunk, &n, nullptr)) return false;
    done += n;
  }
  return true;
}

/// Six random letters and digits: mkstemp's pattern, so temp_name.hpp knows one name on both platforms.
std::string random_suffix(std::random_device& rd) {
  static constexpr std::string_view kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string out;
  for (int i = 0; i < 6; ++i) out += kChars[rd() % kChars.size()];
  return out;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content,
                                                 NewFileAccess) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  for (const auto& stale :
       stale_temporaries(dir, target.filename().string(), std::filesystem::file_time_type::clock::now())) {
    std::error_code ec;
    std::filesystem::remove(stale, ec);  // one another process holds open stays: nothing to do about it
  }
  std::filesystem::path tmp;
  topology::UniqueHandle f;
  std::random_device rd;
  for (int attempt = 0; attempt < 16 && !f; ++attempt) {
    tmp = dir / fmt::format(".{}.{}", target.filename().string(), random_suffix(rd));
    f.reset(::CreateFileW(tmp.wstring().c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL,
                          nullptr));
    if (!f && ::GetLastError() != ERROR_FILE_EXISTS)
      return failed("create a temporary file in", dir.string(), ::GetLastError());
  }
  if (!f) return failed("create a temporary file in", dir.string(), ::GetLastError());

  auto abandon = [&](std::string message) {
    f.reset();
    ::DeleteFileW(tmp.wstring().c_str());
    return std::optional<std::string>(std::move(message));
  };
  if (!write_all(f.get(), content)) return abandon(failed("write", tmp.string(), ::GetLastError()));
  if (!::FlushFileBuffers(f.get())) return abandon(failed("flush", tmp.string(), ::GetLastError()));
  f.reset();
  if (!::MoveFileExW(tmp.wstring().c_str(), target.wstring().c_str(),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    return abandon(failed("rename the temporary file to", path, ::GetLastError()));
  return std::nullopt;
}

void write_through(const std::string& path, std::string_view content) {
  const std::filesystem::path p(path);
  topology::UniqueHandle f(::CreateFileW(p.wstring().c_str(), GENERIC_WRITE,
                                         FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                         FILE_ATTRIBUTE_NORMAL, nullptr));
  if (!f) throw OutputError(kExitEnvironment, failed("open", path, ::GetLastError()));
  if (!write_all(f.get(), content))
    throw OutputError(kExitEnvironment, failed("write", path, ::GetLastError()));
}

std::optional<int> named_descriptor(const std::string& path) {
  return descriptor_alias(path, static_cast<long>(::_getpid()));
}

void write_descriptor(int fd, const std::string& path, std::string_view content) {
  std::fflush(stdout);
  std::fflush(stderr);
  for (std::size_t done = 0; done < content.size();) {
    const auto chunk = static_cast<unsigned>(std::min<std::size_t>(content.size() - done, 1u << 30));
    const int n = ::_write(fd, content.data() + done, chunk);
    if (n < 0)
      throw OutputError(kExitEnvironment, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace usbsat::cli
