#pragma once
/// Devnodes through CfgMgr32 and SetupAPI (WIN32 builds only): a devnode's registry and PnP properties, a PCI
/// function's identity and link, every present interface of a class, the USB devnodes by driver key.
#include "topology/windows/win32/win32.hpp"
// win32.hpp (windows.h) first
#include <cfgmgr32.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

/// A registry property (CM_DRP_*) of devnode `d` as UTF-8; nullopt when it has none.
std::optional<std::string> cm_string(DEVINST d, ULONG prop);
/// The devnode's instance ID ("PCI\VEN_8086&..."); empty when it cannot be read.
std::string instance_id(DEVINST d);
/// The first of the devnode's location paths (DEVPKEY_Device_LocationPaths).
std::optional<std::string> location_path(DEVINST d);
/// A PCI function's IDs, strings, service and PCIe link (DEVPKEY_PciDevice_*).
PciFunction pci_function(DEVINST d);
/// Every present device interface of `guid`: its path and devnode.
std::vector<std::pair<std::wstring, DEVINST>> interfaces_of(const GUID& guid);
/// USB devnodes by driver key ("{36fc9e60-...}\0012"), which is how a hub port names its device.
std::map<std::string, DEVINST> usb_devnodes_by_driver_key();

}  // namespace usbsat::topology::windows
