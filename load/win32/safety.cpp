// Write safety on Windows, the gathering half: the volumes of this system and the disks their extents lie on
// (FindFirstVolumeW, GetVolumePathNamesForVolumeNameW, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS), and the disks
// of the volume holding the Windows directory (the system/boot volume). The decision is decide_disk_write
// (load/windows_safety.cpp, pure).
#include <windows.h>
#include <winioctl.h>

#include <filesystem>
#include <vector>

#include "load/safety.hpp"
#include "load/windows_safety.hpp"
#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::load {
namespace {

std::string narrow(const std::wstring& w) {
  return std::filesystem::path(w).string();
}

/// The disks under the volume `device` (\\.\C: or \\?\Volume{…} without the trailing backslash).
std::vector<unsigned> volume_disks(const std::wstring& device) {
  std::vector<unsigned> disks;
  const topology::UniqueHandle h(::CreateFileW(device.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                               OPEN_EXISTING, 0, nullptr));
  if (!h) return disks;
  alignas(VOLUME_DISK_EXTENTS) char buf[sizeof(VOLUME_DISK_EXTENTS) + 31 * sizeof(DISK_EXTENT)] = {};
  DWORD n = 0;
  if (::DeviceIoControl(h.get(), IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, nullptr, 0, buf, sizeof buf, &n,
                        nullptr)) {
    const auto* ext = reinterpret_cast<const VOLUME_DISK_EXTENTS*>(buf);
    for (DWORD i = 0; i < ext->NumberOfDiskExtents && i < 32; ++i)
      disks.push_back(ext->Extents[i].DiskNumber);
  } else {
    STORAGE_DEVICE_NUMBER num{};
    if (::DeviceIoControl(h.get(), IOCTL_STORAGE_GET_DEVICE_NUMBER, nullptr, 0, &num, sizeof num, &n,
                          nullptr))
      disks.push_back(num.DeviceNumber);
  }
  return disks;
}

std::vector<WindowsVolume> list_volumes() {
  std::vector<WindowsVolume> out;
  wchar_t name[MAX_PATH] = {};
  const HANDLE find = ::FindFirstVolumeW(name, MAX_PATH);
  if (find == INVALID_HANDLE_VALUE) return out;
  do {
    WindowsVolume v;
    std::wstring vol(name);
    v.name = narrow(vol);
    wchar_t paths[4096] = {};
    DWORD len = 0;
    if (::GetVolumePathNamesForVolumeNameW(name, paths, 4096, &len))
      for (const wchar_t* p = paths; *p; p += wcslen(p) + 1) v.mount_points.push_back(narrow(p));
    if (!vol.empty() && vol.back() == L'\\') vol.pop_back();
    v.disks = volume_disks(vol);
    out.push_back(std::move(v));
  } while (::FindNextVolumeW(find, name, MAX_PATH));
  ::FindVolumeClose(find);
  return out;
}

}  // namespace

std::string canonical_path(const std::string& path) {
  if (const auto n = parse_physical_drive(path)) return "\\\\.\\PhysicalDrive" + std::to_string(*n);
  std::error_code ec;
  const auto c = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : c.string();
}

bool is_block_device(const std::string& path) {
  return parse_physical_drive(path).has_value();
}

SafetyDecision check_write(const std::string& target, bool write,
                           const std::vector<std::string>& allow_write) {
  const auto disk = parse_physical_drive(target);
  if (auto refused = refuse_without_permission(write, disk.has_value(), canonical_path(target),
                                               canonical_paths(allow_write)))
    return *refused;
  if (!disk) return {true, {}};  // a regular file: Windows has no loop devices to mount it behind our back
  WindowsDiskFacts f;
  f.disk = *disk;
  f.volumes = list_volumes();
  wchar_t sysdir[MAX_PATH] = {};
  if (::GetSystemDirectoryW(sysdir, MAX_PATH) >= 2 && sysdir[1] == L':') {
    f.system_root = narrow(std::wstring(sysdir, 2) + L"\\");
    f.system_disks = volume_disks(L"\\\\.\\" + std::wstring(sysdir, 2));
  }
  return decide_disk_write(f);
}

std::vector<std::string> stack_members(const std::string&) {
  return {};  // a disk has volumes, no stack of block devices built on it
}

SafetyDecision recheck_write(const std::string& target, const std::vector<std::string>& allow_write,
                             const std::vector<std::string>&) {
  // check_write opens nothing exclusively on Windows: the same check, with a volume mounted since the start
  // refused as at the start.
  return check_write(target, true, allow_write);
}

}  // namespace usbsat::load
