// The live Windows collector: the same walk USBView does (host controllers -> root hub -> ports -> hubs)
// through SetupAPI/CfgMgr32 and the USB hub IOCTLs, then the disks (disks.cpp), into a WindowsSnapshot; it
// decides nothing. Devnode properties: devnode.cpp; handles and conversions: win32.hpp.
#include "topology/windows/win32/collect.hpp"

#include "topology/windows/win32/devnode.hpp"
#include "topology/windows/win32/disks.hpp"
// win32.hpp (windows.h) first
#include <initguid.h>
#include <usbioctl.h>
#include <usbiodef.h>

#include <cstdint>
#include <map>

namespace usbsat::topology::windows {
namespace {

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
  d.location_path = location_path(dn);
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
  s.disks = collect_disks(diags_);
  return s;
}

}  // namespace

WindowsSnapshot collect_snapshot(std::vector<Diagnostic>& diagnostics) {
  return Collector(diagnostics).run();
}

}  // namespace usbsat::topology::windows
