#pragma once
/// scan(): the whole system (or a umockdev testbed) into a Topology plus recorded diagnostics.
#include <optional>
#include <string>
#include <vector>

#include "topology/model/diagnostic.hpp"
#include "topology/model/topology.hpp"
#include "topology/scan/device_source.hpp"

namespace usbsat::topology {

/// How much of each device a scan reads (topology/README.md, "Scan detail"). Every attribute a command prints
/// is read at the level that command asks for; a lower level only leaves out attributes its command never
/// shows.
enum class ScanDetail {
  /// Everything the model holds: `topo --json`, `ports`, `doctor`, `plan`, `saturate` and every other
  /// consumer of the whole Topology.
  Full,
  /// What `drives --json` prints: the Tree detail plus disk `removable`, `max_hw_sectors_kb`, `nr_requests`,
  /// the disks' serials (a USB device's `serial` only where it holds a disk) and the `location` of the ports
  /// of a drive's connector, less the ports' `over_current_count`, every `connect_type` and
  /// `physical_location` but a drive's connector's (of its USB3 side only where the USB2 side has none, as
  /// the connector prints them), and the `manufacturer`/`product` of the USB devices that hold no disk. Still
  /// unset: port `state`/`quirks`/`usb3_lpm_permit` and every other port's
  /// `location`, USB device `removable`/`power/control`/lanes/`bMaxPower`, interface strings/
  /// `bAlternateSetting`/`bNumEndpoints`, disk `ro`/`holders`/block sizes, partition sizes, SCSI `rev`/
  /// `type`/host `proc_name`, PCI subsystem ids.
  Drives,
  /// What the `topo` text tree and the `drives` table print: no port `location`/`state`/`quirks`/
  /// `usb3_lpm_permit`, no USB device `serial`/`removable`/`power/control`/lanes/`bMaxPower`, no interface
  /// strings/`bAlternateSetting`/`bNumEndpoints`, no disk `removable`/`ro`/`holders`/queue limits other than
  /// `rotational` and `max_sectors_kb`, no partition sizes, no SCSI `rev`/`type`/host `proc_name`, no non-USB
  /// disk serial, no PCI subsystem ids. Those fields stay unset.
  Tree,
};

struct ScanConfig {
  /// Where mounted filesystems are listed; a parameter so tests can supply their own.
  std::string mountinfo_path = "/proc/self/mountinfo";
  /// Look vendor/model names up in the udev hwdb.
  bool hwdb_names = true;
  /// Also list virtual block devices (loop, ram, zram, dm-*, md*) as stand-alone roots (usb=false,
  /// transport "loop"/"virtual"). Off by default: they are not drives and never belong to a USB port.
  bool include_virtual_block = false;
  /// Which attributes to read; Full unless the caller prints only the `topo` text tree or the `drives` table
  /// (Tree), or `drives --json` (Drives).
  ScanDetail detail = ScanDetail::Full;
};

/// Facts about the host's USB storage drivers that checks need beyond the topology, read through the same
/// DeviceSource as the devices (so a recording carries them too).
struct HostFacts {
  std::optional<std::string> usb_storage_quirks;  ///< /sys/module/usb_storage/parameters/quirks, trimmed
  std::optional<bool> uas_driver_loaded;          ///< /sys/module/uas exists; nullopt when unknown
};

struct ScanResult {
  Topology topology;
  std::vector<Diagnostic> diagnostics;  ///< one entry per device that could not be read completely
  HostFacts host;
  /// The recorded machine's name (its host name or that name's pseudonym) when this scan replays a
  /// recording; nullopt for a live scan, whose machine is this one.
  std::optional<std::string> recorded_host;
  /// A replayed recording's history (topology/history: what its drives measured, the JSON text), when it
  /// carries one: `--from` then predicts as the recorded machine did.
  std::optional<std::string> recorded_history;
};

/// Scan the running system through libudev (under umockdev: the testbed). One unreadable device becomes a
/// diagnostic; an unusable environment (no /sys, libudev fails) throws ScanError.
ScanResult scan_system(const ScanConfig& config = {});

/// The scan logic over any DeviceSource (UdevSource on Linux, FakeSource in unit tests). Exceptions from
/// the source's enumerate() (ScanError) propagate; every per-device problem becomes a diagnostic.
ScanResult scan(DeviceSource& source, const ScanConfig& config = {});

}  // namespace usbsat::topology
