#pragma once
/// build_topology(): a WindowsSnapshot (live, or the `data` of a "windows" recording) into the same Topology
/// the Linux scan builds, so drives, ports, doctor, plan and predict work unchanged. Portable: it runs (and
/// is unit-tested) on Linux against recordings.
///
/// How Windows maps onto the model (topology/README.md, "Windows"):
/// - PCI hops and controllers keep their PCI address from "PCI bus B, device D, function F"; the PCIe link
///   values come from DEVPKEY_PciDevice_{Current,Max}Link{Speed,Width}.
/// - Windows shows an xHCI as ONE root hub whose ports are USB 2.0 or SuperSpeed ports; the model has one
/// root
///   hub per bus, so the root hub is split into a USB2 half and a SuperSpeed half (usbN, usbN+1), keeping
///   Windows' port numbers (Port_#000N). Companion ports (IOCTL_USB_GET_PORT_CONNECTOR_PROPERTIES) become
///   `peer` links, so connectors pair exactly as on Linux.
/// - Bus numbers (usbN) and device names (N-P.P) are assigned in PCI address order; syspaths are synthetic
///   ("/windows/pci/0000:00:14.0/usb1/usb1-port3/1-3"); disks are PhysicalDriveN, devnode \\.\PhysicalDriveN.
/// - The interface driver is the Windows service: UASPStor = UAS, USBSTOR = Bulk-Only.
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "topology/scan/scan.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

/// The topology of one snapshot. Missing values stay unknown (with a diagnostic where that hides something).
ScanResult build_topology(const WindowsSnapshot& snapshot);
/// The same, after `earlier`: what went wrong while the snapshot was made (the collector's failures, a
/// recording reader's warnings), which comes first in the diagnostics.
ScanResult build_topology(const WindowsSnapshot& snapshot, std::vector<Diagnostic> earlier);

/// The topology of the `data` object of a "windows" recording (snapshot_json.hpp); reader warnings come first
/// in the diagnostics. Throws ScanError when `data` is not a JSON object.
ScanResult build_topology(const nlohmann::json& data);

}  // namespace usbsat::topology::windows
