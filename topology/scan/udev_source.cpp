// With udev_monitor.cpp (hotplug events), the only files that include <libudev.h> (STYLE G3/G4).
#include "topology/scan/udev_source.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <libudev.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "topology/base/text.hpp"
#include "topology/model/errors.hpp"
#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology {

void UdevDeleter::operator()(udev* p) const noexcept {
  udev_unref(p);
}
void UdevDeleter::operator()(udev_enumerate* p) const noexcept {
  udev_enumerate_unref(p);
}
void UdevDeleter::operator()(udev_device* p) const noexcept {
  udev_device_unref(p);
}
void UdevDeleter::operator()(udev_hwdb* p) const noexcept {
  udev_hwdb_unref(p);
}

namespace {

std::string child_path(std::string_view dir, std::string_view name) {
  std::string p(dir);
  if (!name.empty()) {
    p += '/';
    p += name;
  }
  return p;
}

/// Why a file was not read: absent (not a problem: an absent attribute is nullopt), or a problem to report.
struct ReadResult {
  std::optional<std::string> text;
  std::string problem;  ///< "" when read, or when simply absent
  std::string absent;   ///< why an absent file could not be opened (strerror), for callers that need it
};

std::string_view file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// "a FIFO, not a regular file; not read" when `fd` is not a regular file, "" when it is.
std::string not_regular(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return {};
  return std::string(file_type_name(st.st_mode)) + ", not a regular file; not read";
}

/// Read a whole regular file of at most `cap` bytes with open/read (redirected by the umockdev preload under
/// test). Opened non-blocking, so a FIFO or terminal linked in place of an attribute cannot hang the scan,
/// and capped, so /dev/zero cannot exhaust memory; every sysfs attribute, procfs file and fixture file is a
/// regular file. The file type is checked (fstat) only when a read looks wrong (nothing, would block, over
/// the cap), which is what any non-regular file gives: the common path stays open/read/close, one system
/// call fewer per attribute than an fstat each (12,874 on the large benchmark fixture). sysfs returns an
/// attribute in one read, so a short read ends it (`sysfs`); other files (procfs seq_files such as
/// mountinfo return short reads mid-file) are read until EOF.
ReadResult read_all(const std::string& path, std::size_t cap, bool sysfs = true) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == EACCES || errno == EPERM) return {std::nullopt, std::strerror(errno), {}};
    return {std::nullopt, {}, std::strerror(errno)};
  }
  std::string out;
  char buf[16384];
  ReadResult r;
  while (true) {
    const std::size_t want = std::min(sizeof buf, cap + 1 - out.size());
    const ssize_t n = ::read(fd, buf, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      r.problem = not_regular(fd);
      if (r.problem.empty()) r.problem = std::string("read failed: ") + std::strerror(err);
      break;
    }
    if (n == 0) {
      if (out.empty()) r.problem = not_regular(fd);  // a FIFO without a writer, /dev/null
      break;
    }
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > cap) {
      r.problem = not_regular(fd);
      if (r.problem.empty()) r.problem = "larger than " + std::to_string(cap) + " bytes; not read";
      break;
    }
    if (sysfs && static_cast<std::size_t>(n) < want) break;
  }
  ::close(fd);
  if (r.problem.empty()) r.text = std::move(out);
  return r;
}

RawDevice record(udev_device* d) {
  RawDevice r;
  r.syspath = from_c_str(udev_device_get_syspath(d));
  r.subsystem = from_c_str(udev_device_get_subsystem(d));
  r.devtype = from_c_str(udev_device_get_devtype(d));
  r.sysname = from_c_str(udev_device_get_sysname(d));
  r.driver = from_c_str(udev_device_get_driver(d));
  r.devnode = from_c_str(udev_device_get_devnode(d));
  if (udev_device* parent = udev_device_get_parent(d))  // borrowed: owned by d
    r.parent = from_c_str(udev_device_get_syspath(parent));
  return r;
}

}  // namespace

UdevSource::UdevSource() : udev_(udev_new()) {
  if (!udev_) throw ScanError("libudev could not be initialised (udev_new failed)");
  if (::access("/sys/devices", R_OK) != 0)
    throw ScanError(std::string("/sys/devices is not readable: ") + std::strerror(errno));
  hwdb_.reset(udev_hwdb_new(udev_.get()));
}

namespace {

bool exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

std::optional<std::string> read_link(const std::string& path) {
  char buf[4096];
  const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  if (n <= 0) return std::nullopt;
  const auto slash = path.rfind('/');
  return resolve_link(std::string_view(path).substr(0, slash),
                      std::string_view(buf, static_cast<std::size_t>(n)));
}

/// The record of the device directory `syspath` from its `uevent` file (one read gives DEVTYPE, DRIVER and
/// DEVNAME) — the same fields libudev's sd_device derives, without its per-component path resolution.
std::optional<RawDevice> record_from_sysfs(const std::string& syspath, std::string subsystem,
                                           StringSet& known_devices, std::vector<Diagnostic>& problems,
                                           bool listed = false, bool bus_device = false) {
  auto uevent = read_all(syspath + "/uevent", UdevSource::kMaxTextAttribute);
  if (!uevent.text) {
    if (!uevent.problem.empty())
      problems.push_back(
          {Severity::Warning, syspath, "uevent: " + uevent.problem + "; the device is not listed"});
    return std::nullopt;
  }
  auto props = parse_uevent(*uevent.text);
  RawDevice r;
  r.syspath = syspath;
  r.sysname = std::string(path_basename(syspath));
  std::replace(r.sysname.begin(), r.sysname.end(), '!', '/');  // "cciss!c0d0" is cciss/c0d0 (as libudev)
  if (subsystem.empty())
    if (auto l = read_link(syspath + "/subsystem")) subsystem = std::string(path_basename(*l));
  r.subsystem = std::move(subsystem);
  if (auto it = props.find("DEVTYPE"); it != props.end()) r.devtype = it->second;
  // Only bus devices can be bound to a driver (the driver core links `driver` at bind time; class devices
  // such as block disks never have one), so a class listing needs no readlink probe per device.
  if (auto it = props.find("DRIVER"); it != props.end())
    r.driver = it->second;
  else if (!listed || bus_device)
    if (auto l = read_link(syspath + "/driver")) r.driver = std::string(path_basename(*l));
  if (auto it = props.find("DEVNAME"); it != props.end() && !it->second.empty())
    r.devnode = it->second.front() == '/' ? it->second : "/dev/" + it->second;
  r.properties = std::move(props);
  // The parent device: the nearest ancestor directory that is a device (has a uevent file). Devices found
  // through a bus or class listing start at the likely candidate: bus devices sit directly in their
  // parent's directory, class devices below a "<class>" directory of their parent (".../6:0:0:0/block/sda").
  // Directories already known to be devices are remembered, so siblings cost nothing.
  std::string_view p = std::string_view(syspath).substr(0, syspath.rfind('/'));
  // The driver core creates such a "<class>" glue directory only inside the parent device's directory (or
  // below /sys/devices/virtual for devices without a parent), so that directory needs no `uevent` probe.
  if (listed && !bus_device && path_basename(p) == r.subsystem) {
    p = p.substr(0, p.rfind('/'));
    if (p != "/sys/devices/virtual" && p.size() > std::string_view("/sys/devices").size())
      known_devices.insert(std::string(p));
  }
  for (; p.size() > std::string_view("/sys/devices").size(); p = p.substr(0, p.rfind('/'))) {
    if (known_devices.contains(p) || exists(std::string(p) + "/uevent")) {
      r.parent = std::string(p);
      known_devices.insert(*r.parent);
      break;
    }
  }
  return r;
}

/// USB names ordered so that every device comes after its parent (stable: equal depths keep their order).
std::vector<std::string> usb_parents_first(std::vector<std::string> names) {
  std::vector<std::pair<std::size_t, std::string>> keyed;
  keyed.reserve(names.size());
  for (auto& n : names) keyed.emplace_back(usb_name_depth(n), std::move(n));
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  names.clear();
  for (auto& k : keyed) names.push_back(std::move(k.second));
  return names;
}

}  // namespace

std::vector<RawDevice> UdevSource::enumerate(std::string_view subsystem) {
  // The kernel lists every device of a bus under /sys/bus/<s>/devices and of a class under /sys/class/<s>,
  // as links to the device directories; this is where libudev's enumerator looks too.
  const std::string sub(subsystem);
  std::string dir = "/sys/bus/" + sub + "/devices";
  const bool bus = exists(dir);
  if (!bus) dir = "/sys/class/" + sub;
  // Resolve the whole listing first: every listed target is a device, so a child whose parent is listed
  // too (interfaces, hubs' children, partitions) finds it without an `uevent` probe.
  // The USB core places every device below its parent: an interface "B-P:C.I" in its device "B-P" ("usbB"
  // for "B-0:C.I"), a device "B-P.Q" in its hub "B-P", "B-P" in its root hub "usbB". So only the root hubs'
  // links are read; every other path follows from its parent's (the link is still read when that path
  // turns out not to be a device).
  const auto entries = sub == "usb" ? usb_parents_first(list(dir, "")) : list(dir, "");
  std::map<std::string, std::string, std::less<>> targets;
  std::vector<std::pair<std::string, bool>> paths;  // syspath, derived
  for (const auto& entry : entries) {
    std::optional<std::string> target;
    bool derived = false;
    if (sub == "usb")
      if (const auto parent = usb_parent_name(entry))
        if (const auto it = targets.find(*parent); it != targets.end()) {
          target = it->second + "/" + entry;
          derived = true;
        }
    if (!target) target = read_link(dir + "/" + entry);
    if (!target) continue;
    if (entry.find(':') == std::string::npos) targets.emplace(entry, *target);
    paths.emplace_back(std::move(*target), derived);
  }
  for (const auto& p : paths) known_devices_.insert(p.first);
  std::vector<RawDevice> out;
  for (const auto& [path, is_derived] : paths) {
    auto r = record_from_sysfs(path, sub, known_devices_, problems_, true, bus);
    if (!r && is_derived) {
      known_devices_.erase(path);
      if (auto target = read_link(dir + "/" + std::string(path_basename(path))))
        r = record_from_sysfs(*target, sub, known_devices_, problems_, true, bus);
    }
    if (r) out.push_back(std::move(*r));
  }
  std::sort(out.begin(), out.end(),
            [](const RawDevice& a, const RawDevice& b) { return a.syspath < b.syspath; });
  return out;
}

std::optional<RawDevice> UdevSource::device(std::string_view syspath) {
  return record_from_sysfs(std::string(syspath), "", known_devices_, problems_);
}

std::vector<RawDevice> enumerate_with_libudev(std::string_view subsystem) {
  UdevPtr u(udev_new());
  if (!u) throw ScanError("libudev could not be initialised (udev_new failed)");
  UdevEnumeratePtr e(udev_enumerate_new(u.get()));
  if (!e) throw ScanError("libudev: udev_enumerate_new failed");
  const std::string sub(subsystem);
  udev_enumerate_add_match_subsystem(e.get(), sub.c_str());
  if (udev_enumerate_scan_devices(e.get()) < 0) throw ScanError("libudev: cannot enumerate subsystem " + sub);
  std::vector<RawDevice> out;
  udev_list_entry* entry;
  udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e.get())) {
    UdevDevicePtr d(udev_device_new_from_syspath(u.get(), udev_list_entry_get_name(entry)));
    if (d) out.push_back(record(d.get()));
  }
  std::sort(out.begin(), out.end(),
            [](const RawDevice& a, const RawDevice& b) { return a.syspath < b.syspath; });
  return out;
}

std::optional<std::string> UdevSource::read_checked(std::string_view dir, std::string_view name,
                                                    std::size_t cap, bool sysfs) {
  auto r = read_all(child_path(dir, name), cap, sysfs);
  if (!r.problem.empty())
    problems_.push_back(
        {Severity::Warning, std::string(dir),
         (name.empty() ? std::string("file") : "attribute '" + std::string(name) + "'") + ": " + r.problem});
  return std::move(r.text);
}

std::optional<std::string> UdevSource::attribute(std::string_view syspath, std::string_view name) {
  auto text = read_checked(syspath, name, kMaxTextAttribute);
  if (text && !text->empty() && text->back() == '\n') text->pop_back();
  return text;
}

std::optional<std::string> UdevSource::binary_attribute(std::string_view syspath, std::string_view name) {
  return read_checked(syspath, name, kMaxBinaryAttribute);
}

std::optional<std::string> UdevSource::link_target(std::string_view syspath, std::string_view name) {
  return read_link(child_path(syspath, name));
}

std::vector<std::string> UdevSource::list(std::string_view syspath, std::string_view name) {
  std::vector<std::string> out;
  DIR* dir = ::opendir(child_path(syspath, name).c_str());
  if (!dir) {
    if (errno == EACCES || errno == EPERM)
      problems_.push_back({Severity::Warning, child_path(syspath, name),
                           std::string("directory could not be listed: ") + std::strerror(errno)});
    return out;
  }
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    out.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<HwdbEntry> UdevSource::hwdb(std::string_view key) {
  std::vector<HwdbEntry> out;
  if (!hwdb_) return out;
  udev_list_entry* entry;
  udev_list_entry_foreach(entry,
                          udev_hwdb_get_properties_list_entry(hwdb_.get(), std::string(key).c_str(), 0)) {
    out.push_back(
        {from_c_str(udev_list_entry_get_name(entry)), from_c_str(udev_list_entry_get_value(entry))});
  }
  return out;
}

std::optional<std::string> UdevSource::read_text_file(std::string_view path) {
  auto r = read_all(std::string(path), kMaxTextFile, false);
  if (!r.text)
    problems_.push_back({Severity::Warning, std::string(path),
                         r.problem.empty() ? "could not be opened: " + r.absent : r.problem});
  return std::move(r.text);
}

std::vector<Diagnostic> UdevSource::take_read_problems() {
  return std::exchange(problems_, {});
}

}  // namespace usbsat::topology
