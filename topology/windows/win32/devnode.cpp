// Devnodes through CfgMgr32 and SetupAPI: properties of any devnode (the ancestors included), PCI functions,
// device interfaces (devnode.hpp).
#include "topology/windows/win32/devnode.hpp"
// win32.hpp (windows.h) first
#include <devpkey.h>
#include <initguid.h>
// initguid.h first: devpropdef.h again, so DEFINE_DEVPROPKEY below defines its keys instead of declaring them
#include <devpropdef.h>

#include <cstdint>

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

}  // namespace

std::optional<std::string> cm_string(DEVINST d, ULONG prop) {
  wchar_t buf[1024];
  ULONG size = sizeof buf;
  if (CM_Get_DevNode_Registry_PropertyW(d, prop, nullptr, buf, &size, 0) != CR_SUCCESS) return std::nullopt;
  return utf8(buf);
}

std::string instance_id(DEVINST d) {
  wchar_t buf[MAX_DEVICE_ID_LEN + 1];
  if (CM_Get_Device_IDW(d, buf, MAX_DEVICE_ID_LEN, 0) != CR_SUCCESS) return {};
  return utf8(buf);
}

std::optional<std::string> location_path(DEVINST d) {
  return cm_first_of_list(d, kLocationPaths);
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

std::map<std::string, DEVINST> usb_devnodes_by_driver_key() {
  std::map<std::string, DEVINST> out;
  DevInfo set(SetupDiGetClassDevsW(nullptr, L"USB", nullptr, DIGCF_PRESENT | DIGCF_ALLCLASSES));
  if (set.get() == INVALID_HANDLE_VALUE || !set) return out;
  SP_DEVINFO_DATA dev{sizeof dev};
  for (DWORD i = 0; SetupDiEnumDeviceInfo(set.get(), i, &dev); ++i)
    if (auto key = cm_string(dev.DevInst, CM_DRP_DRIVER)) out.emplace(*key, dev.DevInst);
  return out;
}

}  // namespace usbsat::topology::windows
