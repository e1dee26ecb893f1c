#include "topology/recording/serials.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "topology/text.hpp"

namespace usbsat::topology::recording {
namespace {

bool is_serial_property(std::string_view key) { return key.find("SERIAL") != std::string_view::npos; }
bool is_serial_attribute(std::string_view name) {
  return name == "serial" || name.ends_with("/serial");
}

/// Serials shorter than this are replaced where they are the serial, never inside other text (a serial "1"
/// would otherwise change every "1").
constexpr std::size_t kMinEmbedded = 4;

void replace_all(std::string& s, const std::vector<std::pair<std::string, std::string>>& by) {
  for (const auto& [from, to] : by) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
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
  std::vector<std::pair<std::string, std::string>> by;
  for (const auto& s : serials)
    if (s.size() >= kMinEmbedded) by.emplace_back(s, pseudonym(s));
  std::stable_sort(by.begin(), by.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
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

}  // namespace usbsat::topology::recording
