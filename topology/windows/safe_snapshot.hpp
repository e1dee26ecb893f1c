#pragma once
/// safe_snapshot(): the boundary where Windows strings enter the topology model, as SafeSource
/// (topology/scan/safe_source.hpp) is for Linux. Every string of a WindowsSnapshot — from the live collector
/// or a "windows" recording — passes through the one sanitiser, trim_and_escape()
/// (topology/words/escape.hpp), before the builder sees it, so no field of the model can hold a raw control
/// character, bidi override or invalid UTF-8 from a device, the registry or a recording. build_topology()
/// applies it. The descriptors (hex bytes: device_descriptor, configuration_descriptor, bos_descriptor) pass
/// unchanged: they are parsed, never shown.
///
/// Identifiers are sanitised like names; since every copy of one (an instance ID and the disk ancestor
/// naming it, a hub's symbolic link and a port's companion_hub) passes through the same function, they
/// still match each other.
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

WindowsSnapshot safe_snapshot(WindowsSnapshot snapshot);

}  // namespace usbsat::topology::windows
