#include "topology/scan/scanner/scanner.hpp"

#include <algorithm>
#include <set>

#include "topology/scan/safe_source.hpp"

namespace usbsat::topology {
namespace scanner {

std::optional<unsigned> to_unsigned(std::string_view s) {
  auto v = parse_uint(s);
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return static_cast<unsigned>(*v);
}

ScanResult Scanner::run() {
  load_mountinfo();
  collect_read_problems();
  auto usb = src_.enumerate("usb");
  std::vector<const RawDevice*> devices, interfaces;
  for (const auto& r : usb) {
    if (r.devtype == "usb_interface" || (r.devtype.empty() && r.sysname.find(':') != std::string::npos))
      interfaces.push_back(&r);
    else if (r.devtype == "usb_device" || (r.devtype.empty() && parse_usb_name(r.sysname)))
      devices.push_back(&r);
  }
  for (const auto* r : devices) guarded(r->syspath, [&] { add_usb_device(*r); });
  for (const auto& entry :
       ports_) {  // not a structured binding: clang 14 (the fuzz build) cannot capture one
    const auto& seed = entry.second;
    guarded(seed.syspath, [&] { add_port(seed.syspath, seed); });
  }
  check_peers();
  add_thunderbolt();
  // Interfaces the bus listing missed (old or partial trees) but that sit in their device's directory.
  std::vector<RawDevice> extra;
  std::set<std::string_view> known;
  for (const auto* r : interfaces) known.insert(r->syspath);
  for (const auto& path : listed_interfaces_)
    if (!known.contains(path))
      if (auto rec = src_.device(path)) extra.push_back(std::move(*rec));
  for (const auto& r : extra) interfaces.push_back(&r);
  std::sort(interfaces.begin(), interfaces.end(),
            [](const RawDevice* x, const RawDevice* y) { return x->syspath < y->syspath; });
  for (const auto* r : interfaces) guarded(r->syspath, [&] { add_interface(*r); });
  assign_companions();
  // SCSI devices are reached from their disks (".../6:0:0:0/block/sdb"): no scan of the scsi bus needed.
  auto block = src_.enumerate("block");
  for (const auto& r : block)
    if (r.devtype == "disk") guarded(r.syspath, [&] { add_disk(r); });
  for (const auto& r : block)
    if (r.devtype == "partition") guarded(r.syspath, [&] { add_partition(r); });

  HostFacts host = host_facts();
  collect_read_problems();
  ScanResult result{std::move(builder_).finish(diags_), {}, std::move(host)};
  result.diagnostics = std::move(diags_);
  return result;
}

void Scanner::warn(std::string where, std::string message) {
  diags_.push_back({Severity::Warning, std::move(where), std::move(message)});
}

void Scanner::info(std::string where, std::string message) {
  diags_.push_back({Severity::Info, std::move(where), std::move(message)});
}

void Scanner::unusable(const std::string& where, std::string_view attribute,
                       const std::optional<std::string>& text, std::string_view consequence) {
  if (!text) {
    warn(where, "attribute '" + std::string(attribute) + "' could not be read; " + std::string(consequence));
    return;
  }
  std::string shown(trim(*text).substr(0, 40));
  for (auto& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  warn(where, "attribute '" + std::string(attribute) + "' = '" + shown + "' " + std::string(consequence));
}

void Scanner::collect_read_problems() {
  // The same unreadable file is asked for more than once (a device's uevent through the bus listing, then as
  // a child's parent): said once.
  for (auto& d : src_.take_read_problems())
    if (reported_problems_.insert(d.where + '\n' + d.message).second) diags_.push_back(std::move(d));
}

const std::optional<RawDevice>& Scanner::record(const std::string& syspath) {
  if (auto it = records_.find(syspath); it != records_.end()) return it->second;
  return records_.emplace(syspath, src_.device(syspath)).first->second;
}

}  // namespace scanner

ScanResult scan(DeviceSource& source, const ScanConfig& config) {
  // Every string the scanner reads passes the one sanitiser here, whatever the source
  // (topology/scan/safe_source.hpp).
  SafeSource safe(source);
  return scanner::Scanner(safe, config).run();
}

}  // namespace usbsat::topology
