#pragma once
/// The disks of a WindowsSnapshot into the model (build_topology's second half): each PhysicalDriveN is
/// attached to the USB device or function among its PnP ancestors, below the interface that carries its
/// storage, with a SCSI device where Windows gave its address. The USB half (builder.cpp) records where each
/// USB device and function went: UsbPlaces.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "topology/model/builder.hpp"
#include "topology/model/diagnostic.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

/// Instance IDs and symbolic links compare case-insensitively; a symbolic link with or without "\\?\".
std::string key_of(std::string_view id);

/// A string Windows reported, trimmed; nullopt stays nullopt.
std::optional<std::string> trimmed(const std::optional<std::string>& s);

/// Where a USB device or function lives in the model.
struct UsbPlace {
  std::string device;                 ///< syspath of the Device/Hub node
  std::optional<unsigned> interface;  ///< the function's interface number (composite devices)
};

/// What the USB half of the build leaves for the disks.
struct UsbPlaces {
  std::map<std::string, UsbPlace> by_instance;  ///< key_of(instance ID) -> place
  std::map<std::string, std::vector<std::pair<unsigned, std::string>>>
      interfaces;  ///< device -> (number, syspath)
};

/// Adds `disk` (a Block node, and a ScsiDevice where it has a SCSI address and a USB interface) below its USB
/// place, or on its own; what it cannot place goes to `diagnostics`.
void attach_disk(TopologyBuilder& builder, const UsbPlaces& usb, const Disk& disk,
                 std::vector<Diagnostic>& diagnostics);

}  // namespace usbsat::topology::windows
