// Load targets on Windows: a disk (\\.\PhysicalDriveN) or a regular file, opened with CreateFileW for
// overlapped I/O (FILE_FLAG_OVERLAPPED: the IOCP engine and the sync engine's positional ReadFile/WriteFile)
// and unbuffered (FILE_FLAG_NO_BUFFERING, Windows' O_DIRECT: buffers, offsets and lengths sector-aligned).
// The HANDLE is kept as a C runtime descriptor (_open_osfhandle), so UniqueFd owns it and the engines get the
// same `int fd` as on Linux (_get_osfhandle gives the HANDLE back).
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#include <winioctl.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "load/errors.hpp"
#include "load/target.hpp"
#include "load/win32/win_error.hpp"
#include "load/windows_safety.hpp"
#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::load {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int err) {
  const std::string reason = std::string(what) + ": " + std::strerror(err);
  throw TargetError(path + ": " + reason, err, reason);
}

}  // namespace

OpenedTarget open_target(const std::string& path, const OpenOptions& opt) {
  OpenedTarget t;
  t.info.path = path;
  t.info.is_block = parse_physical_drive(path).has_value();
  const std::wstring wpath = std::filesystem::path(path).wstring();
  if (!t.info.is_block) {
    // Only disks and regular files: a directory, a volume or another device is refused before CreateFileW.
    const DWORD attrs = ::GetFileAttributesW(wpath.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES) fail(path, "cannot open", errno_from_win32(::GetLastError()));
    if ((attrs & FILE_ATTRIBUTE_DIRECTORY) || path.rfind("\\\\", 0) == 0)
      fail(path, "not a disk (\\\\.\\PhysicalDriveN) or regular file", EINVAL);
  }
  const DWORD access = GENERIC_READ | (opt.access == Access::ReadWrite ? GENERIC_WRITE : 0);
  const DWORD share = opt.exclusive ? 0 : FILE_SHARE_READ | FILE_SHARE_WRITE;
  auto open = [&](DWORD flags) {
    return ::CreateFileW(wpath.c_str(), access, share, nullptr, OPEN_EXISTING, FILE_FLAG_OVERLAPPED | flags,
                         nullptr);
  };
  topology::UniqueHandle h;
  if (opt.direct) {
    h.reset(open(FILE_FLAG_NO_BUFFERING));
    if (h) {
      t.info.direct = true;
    } else if (::GetLastError() == ERROR_INVALID_PARAMETER) {
      h.reset(open(0));
      if (h)
        t.notice = "unbuffered I/O refused by the filesystem; using buffered I/O (results include the cache)";
    }
  } else {
    h.reset(open(0));
  }
  if (!h) {
    const int err = errno_from_win32(::GetLastError());
    fail(path, err == EBUSY ? "in use (exclusive open failed)" : "cannot open", err);
  }

  if (t.info.is_block) {
    DISK_GEOMETRY_EX geo{};
    DWORD n = 0;
    if (!::DeviceIoControl(h.get(), IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, nullptr, 0, &geo, sizeof geo, &n,
                           nullptr))
      fail(path, "IOCTL_DISK_GET_DRIVE_GEOMETRY_EX", errno_from_win32(::GetLastError()));
    t.info.size_bytes = static_cast<std::uint64_t>(geo.DiskSize.QuadPart);
    if (geo.Geometry.BytesPerSector > 0) t.info.logical_block = geo.Geometry.BytesPerSector;
  } else {
    LARGE_INTEGER size{};
    if (!::GetFileSizeEx(h.get(), &size)) fail(path, "GetFileSizeEx", errno_from_win32(::GetLastError()));
    t.info.size_bytes = static_cast<std::uint64_t>(size.QuadPart);
    // Unbuffered I/O needs the volume's sector alignment; 4096 covers every sector size up to 4Kn.
    FILE_STORAGE_INFO si{};
    std::uint32_t sector = 4096;
    if (::GetFileInformationByHandleEx(h.get(), FileStorageInfo, &si, sizeof si))
      sector = std::max<std::uint32_t>(si.LogicalBytesPerSector, si.PhysicalBytesPerSectorForPerformance);
    t.info.logical_block = std::clamp<std::uint32_t>(sector, 512, 4096);
  }
  if (t.info.size_bytes == 0) fail(path, "size is 0", EINVAL);
  const int fd =
      ::_open_osfhandle(reinterpret_cast<intptr_t>(h.get()),
                        opt.access == Access::ReadWrite ? _O_RDWR | _O_BINARY : _O_RDONLY | _O_BINARY);
  if (fd < 0) fail(path, "_open_osfhandle", EMFILE);
  h.release();  // the descriptor owns the HANDLE now
  t.fd = UniqueFd(fd);
  return t;
}

std::optional<std::pair<std::size_t, std::size_t>> find_named_twice(std::span<const std::string> paths) {
  auto same = [&](std::size_t i, std::size_t j) {
    const auto a = parse_physical_drive(paths[i]), b = parse_physical_drive(paths[j]);
    if (a || b) return a == b;
    std::error_code ec;
    const bool eq = std::filesystem::equivalent(paths[i], paths[j], ec);
    return ec ? paths[i] == paths[j] : eq;
  };
  for (std::size_t j = 1; j < paths.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (same(i, j)) return std::pair{i, j};
  return std::nullopt;
}

OpenedTarget::~OpenedTarget() = default;

}  // namespace usbsat::load
