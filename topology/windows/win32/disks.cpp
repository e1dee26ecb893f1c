// The disks Windows has: the disk interfaces, IOCTL_STORAGE_* and IOCTL_DISK_* on each, the volumes and their
// disk extents (disks.hpp).
#include "topology/windows/win32/disks.hpp"

#include "topology/windows/win32/devnode.hpp"
// win32.hpp (windows.h) first
#include <initguid.h>
#include <ntddscsi.h>
#include <winioctl.h>

#include <cstdint>
#include <cstring>
#include <map>

namespace usbsat::topology::windows {
namespace {

/// Every volume by the disks it lives on, with its mount points and file system; `system_disk` is set to the
/// disk of the volume Windows runs from.
std::map<unsigned, std::vector<Volume>> volumes_by_disk(std::optional<unsigned>& system_disk) {
  std::map<unsigned, std::vector<Volume>> volumes;
  wchar_t windir[MAX_PATH] = L"", sysvol[MAX_PATH] = L"";
  GetWindowsDirectoryW(windir, MAX_PATH);
  GetVolumePathNameW(windir, sysvol, MAX_PATH);
  wchar_t sysvol_name[MAX_PATH] = L"";
  GetVolumeNameForVolumeMountPointW(sysvol, sysvol_name, MAX_PATH);
  wchar_t name[MAX_PATH];
  HANDLE find = FindFirstVolumeW(name, MAX_PATH);
  for (bool ok = find != INVALID_HANDLE_VALUE; ok; ok = FindNextVolumeW(find, name, MAX_PATH)) {
    Volume v;
    v.name = utf8(name);
    wchar_t paths[2048];
    DWORD len = 0;
    if (GetVolumePathNamesForVolumeNameW(name, paths, 2048, &len))
      for (const wchar_t* p = paths; *p; p += wcslen(p) + 1) v.mount_points.push_back(utf8(p));
    wchar_t fs[64];
    if (GetVolumeInformationW(name, nullptr, 0, nullptr, nullptr, nullptr, fs, 64)) v.filesystem = utf8(fs);
    std::wstring device(name);
    if (!device.empty() && device.back() == L'\\')
      device.pop_back();  // open the volume, not its root directory
    auto h = open_device(device, 0);
    if (!h) continue;
    GET_LENGTH_INFORMATION length{};
    if (ioctl(h.get(), IOCTL_DISK_GET_LENGTH_INFO, nullptr, 0, &length, sizeof length))
      v.size_bytes = static_cast<std::uint64_t>(length.Length.QuadPart);
    std::vector<std::uint8_t> buf(sizeof(VOLUME_DISK_EXTENTS) + 16 * sizeof(DISK_EXTENT));
    if (!ioctl(h.get(), IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, nullptr, 0, buf.data(),
               static_cast<DWORD>(buf.size())))
      continue;
    const auto* ext = reinterpret_cast<const VOLUME_DISK_EXTENTS*>(buf.data());
    for (DWORD i = 0; i < ext->NumberOfDiskExtents && i < 16; ++i) {
      if (wcscmp(name, sysvol_name) == 0) system_disk = ext->Extents[i].DiskNumber;
      volumes[ext->Extents[i].DiskNumber].push_back(v);
    }
  }
  if (find != INVALID_HANDLE_VALUE) FindVolumeClose(find);
  return volumes;
}

/// What the storage stack says about an open disk: bus, vendor strings, seek penalty, sector sizes, transfer
/// limit, size, SCSI address, write protection.
void storage_properties(HANDLE h, Disk& d) {
  STORAGE_PROPERTY_QUERY q{StorageDeviceProperty, PropertyStandardQuery, {0}};
  std::vector<std::uint8_t> buf(4096);
  if (ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, buf.data(), static_cast<DWORD>(buf.size()))) {
    const auto* sd = reinterpret_cast<const STORAGE_DEVICE_DESCRIPTOR*>(buf.data());
    auto str = [&](DWORD off) -> std::optional<std::string> {
      if (off == 0 || off >= buf.size()) return std::nullopt;
      return std::string(reinterpret_cast<const char*>(buf.data() + off),
                         strnlen(reinterpret_cast<const char*>(buf.data() + off), buf.size() - off));
    };
    d.bus_type = static_cast<unsigned>(sd->BusType);
    d.removable = sd->RemovableMedia != 0;
    d.vendor = str(sd->VendorIdOffset);
    d.product = str(sd->ProductIdOffset);
    d.revision = str(sd->ProductRevisionOffset);
    d.serial = str(sd->SerialNumberOffset);
  }
  q.PropertyId = StorageDeviceSeekPenaltyProperty;
  DEVICE_SEEK_PENALTY_DESCRIPTOR seek{};
  if (ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &seek, sizeof seek))
    d.incurs_seek_penalty = seek.IncursSeekPenalty != 0;
  q.PropertyId = StorageAccessAlignmentProperty;
  STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR align{};
  if (ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &align, sizeof align)) {
    d.logical_sector_bytes = align.BytesPerLogicalSector;
    d.physical_sector_bytes = align.BytesPerPhysicalSector;
  }
  q.PropertyId = StorageAdapterProperty;
  STORAGE_ADAPTER_DESCRIPTOR adapter{};
  if (ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &adapter, sizeof adapter))
    d.max_transfer_bytes = adapter.MaximumTransferLength;
  GET_LENGTH_INFORMATION length{};
  if (ioctl(h, IOCTL_DISK_GET_LENGTH_INFO, nullptr, 0, &length, sizeof length))
    d.size_bytes = static_cast<std::uint64_t>(length.Length.QuadPart);
  SCSI_ADDRESS sa{};
  if (ioctl(h, IOCTL_SCSI_GET_ADDRESS, nullptr, 0, &sa, sizeof sa))
    d.scsi_address = ScsiAddress{sa.PortNumber, sa.PathId, sa.TargetId, sa.Lun};
  d.read_only = !ioctl(h, IOCTL_DISK_IS_WRITABLE, nullptr, 0, nullptr, 0).has_value();
}

}  // namespace

std::vector<Disk> collect_disks(std::vector<Diagnostic>& diagnostics) {
  std::vector<Disk> disks;
  std::optional<unsigned> system_disk;
  const auto volumes = volumes_by_disk(system_disk);
  for (const auto& [path, dn] : interfaces_of(GUID_DEVINTERFACE_DISK)) {
    auto h = open_device(path, 0);
    if (!h) {
      diagnostics.push_back(
          {Severity::Warning, utf8(path.c_str()), "disk could not be opened; it is not listed"});
      continue;
    }
    STORAGE_DEVICE_NUMBER number{};
    if (!ioctl(h.get(), IOCTL_STORAGE_GET_DEVICE_NUMBER, nullptr, 0, &number, sizeof number)) continue;
    Disk d;
    d.device_number = number.DeviceNumber;
    d.instance_id = instance_id(dn);
    for (DEVINST p = dn, up = 0; CM_Get_Parent(&up, p, 0) == CR_SUCCESS; p = up) {
      const auto id = instance_id(up);
      if (id.empty() || id.rfind("HTREE\\ROOT", 0) == 0) break;
      d.ancestors.push_back(id);
    }
    storage_properties(h.get(), d);
    d.system_disk = system_disk == d.device_number;
    if (auto it = volumes.find(d.device_number); it != volumes.end()) d.volumes = it->second;
    disks.push_back(std::move(d));
  }
  return disks;
}

}  // namespace usbsat::topology::windows
