// SCSI devices, whole disks and partitions. A disk below a USB interface hangs below its SCSI device;
// any other disk is a root of its own with the transport its syspath (or its PCI storage controller) shows.
#include <algorithm>

#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {
namespace {
/// "6:0:0:0": four decimal fields separated by ':'.
bool parse_hctl_like(std::string_view s) {
  int fields = 0;
  for (std::size_t start = 0; start <= s.size(); ++fields) {
    auto end = s.find(':', start);
    if (end == std::string_view::npos) end = s.size();
    if (!parse_uint(s.substr(start, end - start))) return false;
    start = end + 1;
  }
  return fields == 4;
}

/// "MAJOR:MINOR": the `dev` attribute prints the same numbers as the uevent's MAJOR and MINOR, which the
/// source has already read, so the attribute is the fallback only.
std::optional<std::string> devnum_of(const RawDevice& r, const AttrDir& a) {
  auto major = r.properties.find("MAJOR");
  auto minor = r.properties.find("MINOR");
  if (major != r.properties.end() && minor != r.properties.end() && parse_uint(major->second) &&
      parse_uint(minor->second))
    return major->second + ":" + minor->second;
  return a.get("dev");
}
}  // namespace

/// The nearest scanned ancestor of `syspath` (by path prefix), and its kind.
std::optional<std::pair<std::string, NodeKind>> Scanner::nearest_scanned(std::string_view syspath) {
  for (auto p = path_dirname(syspath); !p.empty(); p = path_dirname(p))
    if (auto* n = builder_.get(p)) return std::pair{std::string(p), n->kind};
  return std::nullopt;
}

void Scanner::add_scsi_device(const std::string& syspath) {
  if (builder_.contains(syspath)) return;
  auto up = nearest_scanned(syspath);
  if (!up || up->second != NodeKind::Interface) return;  // not below USB: the disk is listed on its own
  AttrDir a(src_, syspath, false);
  ScsiDeviceInfo s;
  s.syspath = syspath;
  s.hctl = std::string(path_basename(syspath));
  for (auto p = std::string_view(syspath); !p.empty(); p = path_dirname(p))
    if (path_basename(p).starts_with("host") && parse_uint(path_basename(p).substr(4))) {
      s.host = std::string(path_basename(p));
      if (full()) s.host_proc_name = host_proc_name(p);
      break;
    }
  s.vendor = a.trimmed("vendor");
  s.model = a.trimmed("model");
  // The tree prints `type` only for a SCSI device without a disk, and it reaches SCSI devices from disks.
  if (full()) {
    s.rev = a.trimmed("rev");
    s.type = a.parse<unsigned>("type", to_unsigned);
  }
  s.queue_depth = queue_depth(syspath, a.get("queue_depth"));
  builder_.add(Node{NodeKind::ScsiDevice, std::move(s)}, up->first);
}

namespace {
/// Where the kernel puts the namespace head of an NVMe subsystem with native multipath
/// (/sys/block/nvme0n1 -> /sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1): a real disk, although
/// it lives below /sys/devices/virtual.
constexpr std::string_view kNvmeSubsystems = "/devices/virtual/nvme-subsystem/";
/// No real block device reaches 2^60 bytes (1 EiB); a larger size is a corrupt or wrapped count.
constexpr std::uint64_t kMaxPlausibleBytes = std::uint64_t{1} << 60;
/// The block layer caps a queue's depth far below this; 4294967295 is -1 printed unsigned.
constexpr unsigned kMaxPlausibleQueueDepth = 65535;
}  // namespace

std::optional<std::uint64_t> Scanner::size_bytes(const AttrDir& a) {
  const auto text = a.get("size");
  if (!text) return std::nullopt;
  const auto sectors = parse_uint(*text);
  if (sectors && *sectors <= kMaxPlausibleBytes / 512) return *sectors * 512;
  unusable(a.syspath(), "size", text, "is not a plausible count of 512-byte sectors; the size is unknown");
  return std::nullopt;
}

std::optional<unsigned> Scanner::queue_depth(const std::string& scsi_syspath,
                                             std::optional<std::string> text) {
  if (!text) return std::nullopt;
  const auto v = to_unsigned(*text);
  if (v && *v <= kMaxPlausibleQueueDepth) return v;
  unusable(scsi_syspath, "queue_depth", text, "is not a plausible queue depth; it is shown as unknown");
  return std::nullopt;
}

const std::optional<std::string>& Scanner::host_proc_name(std::string_view host_syspath) {
  if (auto it = host_proc_names_.find(host_syspath); it != host_proc_names_.end()) return it->second;
  const std::string host(host_syspath);
  return host_proc_names_
      .emplace(host, src_.attribute(host + "/scsi_host/" + std::string(path_basename(host)), "proc_name"))
      .first->second;
}

std::optional<std::string> Scanner::nvme_path_controller(std::string_view namespace_syspath) {
  const std::string subsystem(path_dirname(namespace_syspath));
  for (const auto& entry : src_.list(subsystem, "")) {
    // The subsystem links each path controller by its name: "nvme0", "nvme1" (not "nvme0n1").
    if (!entry.starts_with("nvme") || !parse_uint(std::string_view(entry).substr(4))) continue;
    if (auto target = src_.link_target(subsystem, entry)) return target;
  }
  return std::nullopt;
}

void Scanner::add_disk(const RawDevice& r) {
  const bool nvme_head = r.syspath.find(kNvmeSubsystems) != std::string::npos;
  const bool is_virtual = !nvme_head && r.syspath.find("/devices/virtual/") != std::string::npos;
  if (is_virtual && !cfg_.include_virtual_block) return;
  AttrDir a(src_, r.syspath, false);
  BlockInfo b;
  b.syspath = r.syspath;
  b.name = r.sysname;
  b.devnode = r.devnode.empty() ? "/dev/" + r.sysname : r.devnode;
  b.devnum = devnum_of(r, a);
  b.size_bytes = size_bytes(a);
  if (drive_fields()) b.removable = a.parse<bool>("removable", parse_yes_no);
  if (full()) b.read_only = a.parse<bool>("ro", parse_yes_no);
  if (a.has("queue")) {
    b.rotational = a.parse<bool>("queue/rotational", parse_yes_no);
    b.max_sectors_kb = a.parse<unsigned>("queue/max_sectors_kb", to_unsigned);
    if (full()) {
      b.logical_block_size = a.parse<unsigned>("queue/logical_block_size", to_unsigned);
      b.physical_block_size = a.parse<unsigned>("queue/physical_block_size", to_unsigned);
    }
    if (drive_fields()) {
      b.max_hw_sectors_kb = a.parse<unsigned>("queue/max_hw_sectors_kb", to_unsigned);
      b.nr_requests = a.parse<unsigned>("queue/nr_requests", to_unsigned);
    }
  }
  b.mountpoints = mounts_of(b.devnum);
  if (full()) b.holders = src_.list(r.syspath, "holders");

  // The SCSI device the disk belongs to (".../6:0:0:0/block/sda"), USB or not.
  if (auto scsi = path_dirname(path_dirname(r.syspath)); path_basename(path_dirname(r.syspath)) == "block" &&
                                                         !scsi.empty() &&
                                                         parse_hctl_like(path_basename(scsi))) {
    b.hctl = std::string(path_basename(scsi));
    guarded(std::string(scsi), [&] { add_scsi_device(std::string(scsi)); });
    if (auto* n = builder_.get(scsi))
      b.queue_depth = n->as<ScsiDeviceInfo>().queue_depth;
    else  // a non-USB disk's SCSI device: the drives table prints its queue depth too
      b.queue_depth = queue_depth(std::string(scsi), src_.attribute(scsi, "queue_depth"));
  }
  std::optional<std::string> up;
  if (auto near = nearest_scanned(r.syspath);
      near && (near->second == NodeKind::ScsiDevice || near->second == NodeKind::Interface)) {
    up = near->first;
    b.usb = true;
    b.transport = "usb";
    if (near->second == NodeKind::ScsiDevice) {
      const auto& s = builder_.get(near->first)->as<ScsiDeviceInfo>();
      b.vendor = s.vendor;
      b.model = s.model;
    }
    if (auto dev = nearest_usb_device(r.syspath)) {
      if (drive_holders_only()) read_drive_holder(dev->syspath);
      b.serial = dev->serial;
    }
  } else if (nvme_head) {
    // Native NVMe multipath: the namespace head has no `device`; the subsystem names the model and serial,
    // and each path controller ("nvme0", below its PCI function) is where the disk is attached.
    b.transport = "nvme";
    const std::string subsystem(path_dirname(r.syspath));
    b.storage_controller = nvme_path_controller(r.syspath);
    if (!b.storage_controller)
      warn(r.syspath, "NVMe subsystem " + std::string(path_basename(subsystem)) +
                          " links no path controller; the disk's controller is unknown");
    const AttrDir from(src_, b.storage_controller ? *b.storage_controller : subsystem, false);
    b.model = from.trimmed("model");
    if (drive_fields()) b.serial = from.trimmed("serial");
  } else {
    b.transport = transport_from_syspath(r.syspath);
    if (b.transport == "scsi" || b.transport == "unknown")
      b.transport = transport_from_pci_class(r.syspath, b.transport);
    b.vendor = a.trimmed("device/vendor");
    b.model = a.trimmed("device/model");
    if (drive_fields()) b.serial = a.trimmed("device/serial");
  }
  if (!builder_.add(Node{NodeKind::Block, std::move(b)}, up))
    warn(r.syspath, "block device enumerated twice");
}

/// Old kernels put SATA disks directly below the PCI function (no ataN directory): the storage
/// controller's PCI class tells the transport (0x0106 SATA, 0x0101 IDE, 0x0108 NVMe, 0x0107 SAS).
std::string Scanner::transport_from_pci_class(std::string_view syspath, std::string fallback) {
  for (auto p = path_dirname(syspath); !p.empty() && p != "/sys/devices"; p = path_dirname(p)) {
    const auto name = path_basename(p);
    if (!parse_pci_address(name)) continue;
    auto cls = src_.attribute(p, "class");
    auto code = cls ? parse_hex32(*cls) : std::nullopt;
    if (!code) return fallback;
    switch (*code >> 8) {
      case 0x0106:
        return "sata";
      case 0x0101:
        return "ata";
      case 0x0107:
        return "sas";
      case 0x0108:
        return "nvme";
      default:
        return fallback;
    }
  }
  return fallback;
}

const UsbDeviceInfo* Scanner::nearest_usb_device(std::string_view syspath) {
  for (auto p = path_dirname(syspath); !p.empty(); p = path_dirname(p))
    if (auto* n = builder_.get(p); n && (n->kind == NodeKind::Device || n->kind == NodeKind::Hub))
      return &n->as<UsbDeviceInfo>();
  return nullptr;
}

void Scanner::add_partition(const RawDevice& r) {
  const std::string disk = r.parent ? *r.parent : std::string(path_dirname(r.syspath));
  Node* n = builder_.get(disk);
  if (!n || n->kind != NodeKind::Block) return;  // partition of a skipped (virtual) disk
  AttrDir a(src_, r.syspath, false);
  Partition p;
  p.name = r.sysname;
  if (full()) p.size_bytes = size_bytes(a);
  p.mountpoints = mounts_of(devnum_of(r, a));
  if (full()) p.holders = src_.list(r.syspath, "holders");
  auto& parts = n->as<BlockInfo>().partitions;
  parts.push_back(std::move(p));
  std::sort(parts.begin(), parts.end(),
            [](const Partition& x, const Partition& y) { return natural_less(x.name, y.name); });
}

}  // namespace usbsat::topology::scanner
