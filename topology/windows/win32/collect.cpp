// The thin Win32 layer: the only file that includes <windows.h>. It moves values out of SetupAPI/CfgMgr32 and
// DeviceIoControl into a WindowsSnapshot (the same walk USBView does: host controllers -> root hub -> ports
// -> hubs), and decides nothing. Every handle is owned by a unique_ptr with a stateless deleter (STYLE G3).
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#include <windows.h>
// windows.h first
#include <cfgmgr32.h>
#include <devpkey.h>
#include <initguid.h>
#include <ntddscsi.h>
#include <setupapi.h>
#include <usbioctl.h>
#include <usbiodef.h>
#include <winioctl.h>

#include <map>
#include <memory>
#include <string>

#include "topology/windows/win32/collect.hpp"

namespace usbsat::topology::windows {
namespace {

// DEVPKEY_PciDevice_{Current,Max}Link{Speed,Width} (pciprop.h, not shipped by mingw-w64).
DEFINE_DEVPROPKEY(kPciCurrentLinkSpeed, 0x3ab22e31, 0x8264, 0x4b4e, 0x9a, 0xf5, 0xa8, 0xd2, 0xd8, 0xe3, 0x3e,
                  0x62, 9);
DEFINE_DEVPROPKEY(kPciCurrentLinkWidth, 0x3ab22e31, 0x8264, 0x4b4e, 0x9a, 0xf5, 0xa8, 0xd2, 0xd8, 0xe3, 0x3e,
                  0x62, 10);
DEFINE_DEVPROPKEY(kPciMaxLinkSpeed, 0x3ab22e31, 0x8264, 0x4b4e, 0x9a, 0xf5, 0xa8, 0xd2, 0xd8, 0xe3, 0x3e,
                  0x62, 11);
DEFINE_DEVPROPKEY(kPciMaxLinkWidth, 0x3ab22e31, 0x8264, 0x4b4e, 0x9a, 0xf5, 0xa8, 0xd2, 0xd8, 0xe3, 0x3e,
                  0x62, 12);
DEFINE_DEVPROPKEY(kLocationPaths, 0xa45c254e, 0xdf1c, 0x4efd, 0x80, 0x20, 0x67, 0xd1, 0x46, 0xa8, 0x50, 0xe0,
                  37);

struct HandleCloser {
  void operator()(HANDLE h) const {
    if (h && h != INVALID_HANDLE_VALUE) CloseHandle(h);
  }
};
using Handle = std::unique_ptr<void, HandleCloser>;
struct DevInfoCloser {
  void operator()(HDEVINFO h) const {
    if (h && h != INVALID_HANDLE_VALUE) SetupDiDestroyDeviceInfoList(h);
  }
};
using DevInfo = std::unique_ptr<void, DevInfoCloser>;

std::string utf8(const wchar_t* w, int n = -1) {
  if (!w) return {};
  const int len = WideCharToMultiByte(CP_UTF8, 0, w, n, nullptr, 0, nullptr, nullptr);
  if (len <= 0) return {};
  std::string s(static_cast<std::size_t>(len), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w, n, s.data(), len, nullptr, nullptr);
  if (n < 0 && !s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::wstring wide(const std::string& s) {
  const int len = MultiByteToWideChar(CP_UTF8, 0, s.c_str(), -1, nullptr, 0);
  std::wstring w(static_cast<std::size_t>(len > 0 ? len : 1), L'\0');
  if (len > 0) MultiByteToWideChar(CP_UTF8, 0, s.c_str(), -1, w.data(), len);
  w.resize(wcslen(w.c_str()));
  return w;
}

Handle open_device(const std::wstring& path, DWORD access = GENERIC_WRITE) {
  HANDLE h = CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0,
                         nullptr);
  return Handle(h == INVALID_HANDLE_VALUE ? nullptr : h);
}

/// DeviceIoControl with one in/out buffer; the bytes returned, or nullopt on failure.
std::optional<DWORD> ioctl(HANDLE h, DWORD code, void* in, DWORD in_size, void* out, DWORD out_size) {
  DWORD got = 0;
  if (!DeviceIoControl(h, code, in, in_size, out, out_size, &got, nullptr)) return std::nullopt;
  return got;
}

// ---- device properties through CfgMgr32 (work for any devnode, the ancestors included) ----
std::optional<std::string> cm_string(DEVINST d, ULONG prop) {
  wchar_t buf[1024];
  ULONG size = sizeof buf;
  if (CM_Get_DevNode_Registry_PropertyW(d, prop, nullptr, buf, &size, 0) != CR_SUCCESS) return std::nullopt;
  return utf8(buf);
}
std::vector<std::string> cm_multi(DEVINST d, ULONG prop) {
  wchar_t buf[4096];
  ULONG size = sizeof buf;
  std::vector<std::string> out;
  if (CM_Get_DevNode_Registry_PropertyW(d, prop, nullptr, buf, &size, 0) != CR_SUCCESS) return out;
  for (const wchar_t* p = buf; *p; p += wcslen(p) + 1) out.push_back(utf8(p));
  return out;
}
std::optional<std::uint32_t> cm_u32(DEVINST d, const DEVPROPKEY& key) {
  DEVPROPTYPE type = 0;
  std::uint32_t v = 0;
  ULONG size = sizeof v;
  if (CM_Get_DevNode_PropertyW(d, &key, &type, reinterpret_cast<PBYTE>(&v), &size, 0) != CR_SUCCESS ||
      type != DEVPROP_TYPE_UINT32)
    return std::nullopt;
  return v;
}
std::optional<std::string> cm_first_of_list(DEVINST d, const DEVPROPKEY& key) {
  DEVPROPTYPE type = 0;
  wchar_t buf[2048];
  ULONG size = sizeof buf;
  if (CM_Get_DevNode_PropertyW(d, &key, &type, reinterpret_cast<PBYTE>(buf), &size, 0) != CR_SUCCESS ||
      type != DEVPROP_TYPE_STRING_LIST)
    return std::nullopt;
  return utf8(buf);
}
std::string instance_id(DEVINST d) {
  wchar_t buf[MAX_DEVICE_ID_LEN + 1];
  if (CM_Get_Device_IDW(d, buf, MAX_DEVICE_ID_LEN, 0) != CR_SUCCESS) return {};
  return utf8(buf);
}
PciFunction pci_function(DEVINST d) {
  PciFunction f;
  f.instance_id = instance_id(d);
  f.hardware_ids = cm_multi(d, CM_DRP_HARDWAREID);
  f.compatible_ids = cm_multi(d, CM_DRP_COMPATIBLEIDS);
  f.location_info = cm_string(d, CM_DRP_LOCATION_INFORMATION);
  f.location_path = cm_first_of_list(d, kLocationPaths);
  f.service = cm_string(d, CM_DRP_SERVICE);
  f.description = cm_string(d, CM_DRP_DEVICEDESC);
  f.manufacturer = cm_string(d, CM_DRP_MFG);
  f.link.current_speed = cm_u32(d, kPciCurrentLinkSpeed);
  f.link.current_width = cm_u32(d, kPciCurrentLinkWidth);
  f.link.max_speed = cm_u32(d, kPciMaxLinkSpeed);
  f.link.max_width = cm_u32(d, kPciMaxLinkWidth);
  return f;
}

/// Every present device interface of `guid`: its path and devnode.
std::vector<std::pair<std::wstring, DEVINST>> interfaces_of(const GUID& guid) {
  std::vector<std::pair<std::wstring, DEVINST>> out;
  DevInfo set(SetupDiGetClassDevsW(&guid, nullptr, nullptr, DIGCF_PRESENT | DIGCF_DEVICEINTERFACE));
  if (set.get() == INVALID_HANDLE_VALUE || !set) return out;
  SP_DEVICE_INTERFACE_DATA ifd{sizeof ifd};
  for (DWORD i = 0; SetupDiEnumDeviceInterfaces(set.get(), nullptr, &guid, i, &ifd); ++i) {
    DWORD need = 0;
    SetupDiGetDeviceInterfaceDetailW(set.get(), &ifd, nullptr, 0, &need, nullptr);
    if (need < sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_W)) continue;
    std::vector<std::uint8_t> buf(need);
    auto* detail = reinterpret_cast<SP_DEVICE_INTERFACE_DETAIL_DATA_W*>(buf.data());
    detail->cbSize = sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_W);
    SP_DEVINFO_DATA dev{sizeof dev};
    if (!SetupDiGetDeviceInterfaceDetailW(set.get(), &ifd, detail, need, nullptr, &dev)) continue;
    out.emplace_back(detail->DevicePath, dev.DevInst);
  }
  return out;
}

/// USB devnodes by driver key ("{36fc9e60-...}\0012"), which is how a hub port names its device.
std::map<std::string, DEVINST> usb_devnodes_by_driver_key() {
  std::map<std::string, DEVINST> out;
  DevInfo set(SetupDiGetClassDevsW(nullptr, L"USB", nullptr, DIGCF_PRESENT | DIGCF_ALLCLASSES));
  if (set.get() == INVALID_HANDLE_VALUE || !set) return out;
  SP_DEVINFO_DATA dev{sizeof dev};
  for (DWORD i = 0; SetupDiEnumDeviceInfo(set.get(), i, &dev); ++i)
    if (auto key = cm_string(dev.DevInst, CM_DRP_DRIVER)) out.emplace(*key, dev.DevInst);
  return out;
}

std::string hex(const std::uint8_t* p, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

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

class Collector {
 public:
  explicit Collector(std::vector<Diagnostic>& diags)
      : diags_(diags), by_driver_key_(usb_devnodes_by_driver_key()) {}
  WindowsSnapshot run();

 private:
  void warn(std::string where, std::string what) {
    diags_.push_back({Severity::Warning, std::move(where), std::move(what)});
  }
  std::optional<UsbHub> hub(const std::string& symbolic_link, int depth);
  void port(HANDLE hub, unsigned n, UsbPort& p, int depth);
  std::optional<std::string> descriptor(HANDLE hub, unsigned port, std::uint8_t type, std::uint8_t index,
                                        std::uint16_t language);
  std::optional<std::string> string_descriptor(HANDLE hub, unsigned port, std::uint8_t index);
  std::optional<std::string> node_name(HANDLE hub, DWORD code, unsigned port);
  void device_node(UsbDevice& d, const std::string& driver_key);
  void disks(WindowsSnapshot& s);

  std::vector<Diagnostic>& diags_;
  std::map<std::string, DEVINST> by_driver_key_;
};

std::optional<std::string> Collector::node_name(HANDLE h, DWORD code, unsigned port) {
  // USB_NODE_CONNECTION_NAME and USB_NODE_CONNECTION_DRIVERKEY_NAME share this layout.
  struct {
    ULONG ConnectionIndex;
    ULONG ActualLength;
    WCHAR Name[512];
  } buf{};
  buf.ConnectionIndex = port;
  if (!ioctl(h, code, &buf, sizeof buf, &buf, sizeof buf)) return std::nullopt;
  return utf8(buf.Name);
}

std::optional<std::string> Collector::descriptor(HANDLE h, unsigned port, std::uint8_t type,
                                                 std::uint8_t index, std::uint16_t language) {
  std::vector<std::uint8_t> buf(sizeof(USB_DESCRIPTOR_REQUEST) + 4096);
  auto fetch = [&](std::uint16_t length) -> std::optional<DWORD> {
    std::fill(buf.begin(), buf.end(), 0);
    auto* req = reinterpret_cast<USB_DESCRIPTOR_REQUEST*>(buf.data());
    req->ConnectionIndex = port;
    req->SetupPacket.bmRequest = 0x80;
    req->SetupPacket.bRequest = 6;  // GET_DESCRIPTOR
    req->SetupPacket.wValue = static_cast<USHORT>((type << 8) | index);
    req->SetupPacket.wIndex = language;
    req->SetupPacket.wLength = length;
    const DWORD size = static_cast<DWORD>(sizeof(USB_DESCRIPTOR_REQUEST) + length);
    auto got = ioctl(h, IOCTL_USB_GET_DESCRIPTOR_FROM_NODE_CONNECTION, buf.data(), size, buf.data(), size);
    if (!got || *got < sizeof(USB_DESCRIPTOR_REQUEST)) return std::nullopt;
    return *got - static_cast<DWORD>(sizeof(USB_DESCRIPTOR_REQUEST));
  };
  const std::uint8_t* data = buf.data() + sizeof(USB_DESCRIPTOR_REQUEST);
  std::uint16_t length = 255;
  if (type == 2 || type == 0x0f) {  // configuration, BOS: the header carries the total length
    auto got = fetch(type == 2 ? 9 : 5);
    if (!got || *got < 4) return std::nullopt;
    length = static_cast<std::uint16_t>(data[2] | (data[3] << 8));
    if (length > 4096) length = 4096;
  }
  auto got = fetch(length);
  if (!got) return std::nullopt;
  return hex(data, *got);
}

std::optional<std::string> Collector::string_descriptor(HANDLE h, unsigned port, std::uint8_t index) {
  if (index == 0) return std::nullopt;
  auto hexed = descriptor(h, port, 3, index, 0x0409);
  if (!hexed) return std::nullopt;
  // Back from hex: bLength, bDescriptorType, then UTF-16LE.
  std::wstring w;
  std::vector<unsigned> bytes;
  for (std::size_t i = 0; i + 1 < hexed->size(); i += 3)
    bytes.push_back(std::stoul(hexed->substr(i, 2), nullptr, 16));
  for (std::size_t i = 2; i + 1 < bytes.size(); i += 2)
    w.push_back(static_cast<wchar_t>(bytes[i] | (bytes[i + 1] << 8)));
  return utf8(w.c_str());
}

void Collector::device_node(UsbDevice& d, const std::string& driver_key) {
  auto it = by_driver_key_.find(driver_key);
  if (it == by_driver_key_.end()) return;
  const DEVINST dn = it->second;
  d.instance_id = instance_id(dn);
  d.service = cm_string(dn, CM_DRP_SERVICE);
  d.description = cm_string(dn, CM_DRP_DEVICEDESC);
  d.location_info = cm_string(dn, CM_DRP_LOCATION_INFORMATION);
  d.location_path = cm_first_of_list(dn, kLocationPaths);
  // Composite devices: the interface functions are child devnodes "USB\VID_..&PID_..&MI_nn\...".
  DEVINST child = 0;
  for (bool ok = CM_Get_Child(&child, dn, 0) == CR_SUCCESS; ok;
       ok = CM_Get_Sibling(&child, child, 0) == CR_SUCCESS) {
    const std::string id = instance_id(child);
    const auto mi = id.find("&MI_");
    if (mi == std::string::npos || mi + 6 > id.size()) continue;
    UsbFunction f;
    f.interface_number = static_cast<unsigned>(std::strtoul(id.substr(mi + 4, 2).c_str(), nullptr, 16));
    f.instance_id = id;
    f.service = cm_string(child, CM_DRP_SERVICE);
    d.functions.push_back(std::move(f));
  }
}

void Collector::port(HANDLE h, unsigned n, UsbPort& p, int depth) {
  std::vector<std::uint8_t> buf(sizeof(USB_NODE_CONNECTION_INFORMATION_EX) + 30 * sizeof(USB_PIPE_INFO));
  auto* ci = reinterpret_cast<USB_NODE_CONNECTION_INFORMATION_EX*>(buf.data());
  ci->ConnectionIndex = n;
  const bool have_ci = ioctl(h, IOCTL_USB_GET_NODE_CONNECTION_INFORMATION_EX, buf.data(),
                             static_cast<DWORD>(buf.size()), buf.data(), static_cast<DWORD>(buf.size()))
                           .has_value();
  if (have_ci) {
    p.connection_status = static_cast<unsigned>(ci->ConnectionStatus);
    if (ci->ConnectionStatus == DeviceConnected) p.speed = ci->Speed;
  }
  USB_NODE_CONNECTION_INFORMATION_EX_V2 v2{};
  v2.ConnectionIndex = n;
  v2.Length = sizeof v2;
  v2.SupportedUsbProtocols.Usb110 = v2.SupportedUsbProtocols.Usb200 = v2.SupportedUsbProtocols.Usb300 = 1;
  if (ioctl(h, IOCTL_USB_GET_NODE_CONNECTION_INFORMATION_EX_V2, &v2, sizeof v2, &v2, sizeof v2)) {
    p.protocols = {v2.SupportedUsbProtocols.Usb110 != 0, v2.SupportedUsbProtocols.Usb200 != 0,
                   v2.SupportedUsbProtocols.Usb300 != 0};
    if (p.connection_status == 1u) {
      p.operating_at_super_speed_or_higher = v2.Flags.DeviceIsOperatingAtSuperSpeedOrHigher != 0;
      p.super_speed_capable_or_higher = v2.Flags.DeviceIsSuperSpeedCapableOrHigher != 0;
      p.operating_at_super_speed_plus_or_higher = v2.Flags.DeviceIsOperatingAtSuperSpeedPlusOrHigher != 0;
      p.super_speed_plus_capable_or_higher = v2.Flags.DeviceIsSuperSpeedPlusCapableOrHigher != 0;
    }
  }
  USB_PORT_CONNECTOR_PROPERTIES head{};
  head.ConnectionIndex = n;
  if (ioctl(h, IOCTL_USB_GET_PORT_CONNECTOR_PROPERTIES, &head, sizeof head, &head, sizeof head) &&
      head.ActualLength >= sizeof head && head.ActualLength < 65536) {
    std::vector<std::uint8_t> full(head.ActualLength);
    auto* cp = reinterpret_cast<USB_PORT_CONNECTOR_PROPERTIES*>(full.data());
    cp->ConnectionIndex = n;
    if (ioctl(h, IOCTL_USB_GET_PORT_CONNECTOR_PROPERTIES, full.data(), head.ActualLength, full.data(),
              head.ActualLength)) {
      p.companion_index = cp->CompanionIndex;
      p.companion_port = cp->CompanionPortNumber;
      p.companion_hub = utf8(cp->CompanionHubSymbolicLinkName);
      p.user_connectable = cp->UsbPortProperties.PortIsUserConnectable != 0;
      p.debug_capable = cp->UsbPortProperties.PortIsDebugCapable != 0;
      p.type_c = (cp->UsbPortProperties.ul & 0x8) != 0;  // PortConnectorIsTypeC (Windows 10 SDK bit 3)
    }
  }
  if (!have_ci || ci->ConnectionStatus != DeviceConnected) return;
  UsbDevice d;
  d.device_descriptor =
      hex(reinterpret_cast<const std::uint8_t*>(&ci->DeviceDescriptor), sizeof(USB_DEVICE_DESCRIPTOR));
  d.current_configuration = ci->CurrentConfigurationValue;
  d.configuration_descriptor = descriptor(h, n, 2, 0, 0);
  if (ci->DeviceDescriptor.bcdUSB >= 0x0201) d.bos_descriptor = descriptor(h, n, 0x0f, 0, 0);
  d.manufacturer = string_descriptor(h, n, ci->DeviceDescriptor.iManufacturer);
  d.product = string_descriptor(h, n, ci->DeviceDescriptor.iProduct);
  d.serial = string_descriptor(h, n, ci->DeviceDescriptor.iSerialNumber);
  if (auto key = node_name(h, IOCTL_USB_GET_NODE_CONNECTION_DRIVERKEY_NAME, n)) device_node(d, *key);
  if (d.instance_id.empty()) d.instance_id = "port " + std::to_string(n) + " (no device node)";
  if (ci->DeviceIsHub && depth < 8) {
    if (auto name = node_name(h, IOCTL_USB_GET_NODE_CONNECTION_NAME, n)) d.hub = hub(*name, depth + 1);
  }
  p.device.push_back(std::move(d));
}

std::optional<UsbHub> Collector::hub(const std::string& symbolic_link, int depth) {
  auto h = open_device(L"\\\\?\\" + wide(symbolic_link));
  if (!h) {
    warn(symbolic_link,
         "hub could not be opened (error " + std::to_string(GetLastError()) + "); its ports are unknown");
    return std::nullopt;
  }
  UsbHub hub;
  hub.symbolic_link = symbolic_link;
  USB_NODE_INFORMATION info{};
  if (ioctl(h.get(), IOCTL_USB_GET_NODE_INFORMATION, &info, sizeof info, &info, sizeof info))
    hub.number_of_ports = info.u.HubInformation.HubDescriptor.bNumberOfPorts;
  USB_HUB_INFORMATION_EX ex{};
  if (ioctl(h.get(), IOCTL_USB_GET_HUB_INFORMATION_EX, &ex, sizeof ex, &ex, sizeof ex)) {
    hub.hub_type = static_cast<unsigned>(ex.HubType);
    hub.number_of_ports = ex.HighestPortNumber;
  }
  for (unsigned n = 1; n <= hub.number_of_ports.value_or(0) && n <= 255; ++n) {
    UsbPort p;
    p.number = n;
    port(h.get(), n, p, depth);
    hub.ports.push_back(std::move(p));
  }
  return hub;
}

void Collector::disks(WindowsSnapshot& s) {
  std::optional<unsigned> system_disk;
  const auto volumes = volumes_by_disk(system_disk);
  for (const auto& [path, dn] : interfaces_of(GUID_DEVINTERFACE_DISK)) {
    auto h = open_device(path, 0);
    if (!h) {
      warn(utf8(path.c_str()), "disk could not be opened; it is not listed");
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
    s.disks.push_back(std::move(d));
  }
}

WindowsSnapshot Collector::run() {
  WindowsSnapshot s;
  using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
  if (HMODULE ntdll = GetModuleHandleW(L"ntdll.dll"))
    if (auto fn = reinterpret_cast<RtlGetVersionFn>(
            reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")))) {
      OSVERSIONINFOW v{sizeof v};
      if (fn(&v) == 0)
        s.os_version = std::to_string(v.dwMajorVersion) + "." + std::to_string(v.dwMinorVersion) + "." +
                       std::to_string(v.dwBuildNumber);
    }
  for (const auto& [path, dn] : interfaces_of(GUID_DEVINTERFACE_USB_HOST_CONTROLLER)) {
    HostController hc;
    hc.pci = pci_function(dn);
    for (DEVINST p = dn, up = 0; CM_Get_Parent(&up, p, 0) == CR_SUCCESS; p = up) {
      auto f = pci_function(up);
      if (f.instance_id.rfind("PCI\\", 0) != 0) break;
      hc.upstream.push_back(std::move(f));
    }
    auto h = open_device(path);
    if (!h) {
      warn(hc.pci.instance_id, "host controller could not be opened; its root hub is unknown");
    } else {
      struct {
        ULONG ActualLength;
        WCHAR RootHubName[512];
      } name{};
      if (ioctl(h.get(), IOCTL_USB_GET_ROOT_HUB_NAME, nullptr, 0, &name, sizeof name)) {
        const std::string link = utf8(name.RootHubName);
        hc.root_hub = hub(link, 0);
        DEVINST child = 0;
        if (CM_Get_Child(&child, dn, 0) == CR_SUCCESS) hc.root_hub_instance_id = instance_id(child);
      }
    }
    s.controllers.push_back(std::move(hc));
  }
  disks(s);
  return s;
}

}  // namespace

WindowsSnapshot collect_snapshot(std::vector<Diagnostic>& diagnostics) {
  return Collector(diagnostics).run();
}

}  // namespace usbsat::topology::windows
