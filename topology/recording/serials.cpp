#include "topology/recording/serials.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "topology/base/text.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::recording {
namespace {

bool is_serial_property(std::string_view key) {
  return key.find("SERIAL") != std::string_view::npos;
}
bool is_serial_attribute(std::string_view name) {
  return name == "serial" || name.ends_with("/serial");
}

/// Serials shorter than this are replaced where they are the serial, never inside other text (a serial "1"
/// would otherwise change every "1").
constexpr std::size_t kMinEmbedded = 4;

using Replacements = std::vector<std::pair<std::string, std::string>>;

char lower_ascii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

enum class Case { Exact, Ignore };

/// Replace every occurrence of each `from` by its `to`. Case::Ignore for Windows, which writes one serial
/// upper case in an instance ID ("USB\VID_..\4C5300...") and lower case in a symbolic link
/// ("USB#VID_..#4c5300...#{...}").
void replace_all(std::string& s, const Replacements& by, Case c = Case::Exact) {
  const auto same = [c](char a, char b) {
    return c == Case::Exact ? a == b : lower_ascii(a) == lower_ascii(b);
  };
  for (const auto& [from, to] : by) {
    for (std::size_t at = 0;;) {
      const auto it =
          std::search(s.begin() + static_cast<std::ptrdiff_t>(at), s.end(), from.begin(), from.end(), same);
      if (it == s.end()) break;
      at = static_cast<std::size_t>(it - s.begin());
      s.replace(at, from.size(), to);
      at += to.size();
    }
  }
}

/// Replacements for `serials` (4 characters or more), longest first: a serial may contain a shorter one.
Replacements embedded(const std::set<std::string>& serials) {
  Replacements by;
  for (const auto& s : serials)
    if (s.size() >= kMinEmbedded) by.emplace_back(s, pseudonym(s));
  std::stable_sort(by.begin(), by.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  return by;
}

template <typename F>
void for_each_device(windows::UsbHub& hub, F&& f) {
  for (auto& port : hub.ports)
    for (auto& dev : port.device) {
      f(dev);
      if (dev.hub) for_each_device(*dev.hub, f);
    }
}

}  // namespace

std::string pseudonym(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  std::string out = "h:";
  for (int shift = 60; shift >= 16; shift -= 4) out += "0123456789abcdef"[(h >> shift) & 0xf];
  return out;
}

void hide_serials(LinuxCapture& c) {
  // Root hubs' serial is their controller's bus id ("0000:00:14.0"): a device name, not a secret.
  std::set<std::string, std::less<>> bus_ids;
  for (const auto& [path, d] : c.devices)
    for (std::size_t at = 0; at != std::string::npos;) {
      const auto next = path.find('/', at + 1);
      bus_ids.insert(path.substr(at + 1, next == std::string::npos ? next : next - at - 1));
      at = next;
    }
  const auto secret = [&](const std::string& v) { return !trim(v).empty() && !bus_ids.contains(trim(v)); };
  // 1. The serials themselves, replaced where they are the value. Hashed as shown (trimmed: NVMe pads them).
  std::set<std::string> serials;
  const auto hide = [&](const std::string& v) {
    const std::string shown(trim(v));
    serials.insert(shown);
    return pseudonym(shown);
  };
  for (auto& [path, d] : c.devices) {
    if (!d) continue;
    for (auto& [key, value] : d->properties)
      if (is_serial_property(key) && secret(value)) {
        value = hide(value);
      }
  }
  for (auto& [path, names] : c.attributes)
    for (auto& [name, value] : names)
      if (is_serial_attribute(name) && value && secret(*value)) {
        *value = hide(*value);
      }
  // 2. The same serials inside other text, longest first (ID_SERIAL contains ID_SERIAL_SHORT).
  const auto by = embedded(serials);
  if (by.empty()) return;
  for (auto& [path, d] : c.devices) {
    if (!d) continue;
    for (auto& [key, value] : d->properties)
      if (!is_serial_property(key)) replace_all(value, by);
  }
  for (auto& [path, names] : c.attributes)
    for (auto& [name, value] : names)
      if (!is_serial_attribute(name) && value) replace_all(*value, by);
  for (auto& [path, text] : c.files)
    if (text) replace_all(*text, by);
}

void hide_serials(windows::WindowsSnapshot& s) {
  // 1. The serial string descriptors of USB devices and the disks' STORAGE_DEVICE_DESCRIPTOR serials.
  std::set<std::string> serials;
  const auto hide = [&](std::optional<std::string>& v) {
    if (!v || trim(*v).empty()) return;
    const std::string shown(trim(*v));
    serials.insert(shown);
    *v = pseudonym(shown);
  };
  for (auto& c : s.controllers)
    if (c.root_hub) for_each_device(*c.root_hub, [&](windows::UsbDevice& d) { hide(d.serial); });
  for (auto& d : s.disks) hide(d.serial);
  // 2. The same serials inside device instance IDs and the hubs' symbolic links, in any letter case.
  const auto by = embedded(serials);
  if (by.empty()) return;
  const auto in = [&](std::string& v) { replace_all(v, by, Case::Ignore); };
  const auto in_opt = [&](std::optional<std::string>& v) {
    if (v) in(*v);
  };
  const auto in_hub = [&](windows::UsbHub& h) {
    in_opt(h.symbolic_link);
    for (auto& p : h.ports) in_opt(p.companion_hub);
  };
  for (auto& c : s.controllers) {
    if (!c.root_hub) continue;
    in_hub(*c.root_hub);
    for_each_device(*c.root_hub, [&](windows::UsbDevice& d) {
      in(d.instance_id);
      for (auto& f : d.functions) in(f.instance_id);
      if (d.hub) in_hub(*d.hub);
    });
  }
  for (auto& d : s.disks) {
    in_opt(d.instance_id);
    for (auto& a : d.ancestors) in(a);
  }
}

}  // namespace usbsat::topology::recording
