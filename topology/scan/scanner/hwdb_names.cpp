// Vendor and model names from the hardware database (udev hwdb), looked up once per key.
#include <cstdio>

#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {
namespace {
/// hwdb keys spell ids in upper-case hex: "usb:v0781p5583".
std::string upper_hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04X", v);
  return buf;
}
}  // namespace

std::pair<std::string, std::string> Scanner::hwdb_names(const std::string& key) {
  if (!cfg_.hwdb_names) return {};
  if (auto it = names_.find(key); it != names_.end()) return it->second;
  std::pair<std::string, std::string> out;
  for (const auto& e : src_.hwdb(key)) {
    if (e.key == "ID_VENDOR_FROM_DATABASE") out.first = e.value;
    if (e.key == "ID_MODEL_FROM_DATABASE") out.second = e.value;
  }
  return names_.emplace(key, out).first->second;
}

std::pair<std::string, std::string> Scanner::pci_names(std::optional<std::uint16_t> vendor,
                                                       std::optional<std::uint16_t> device) {
  if (!vendor) return {};
  char key[40];
  if (device)
    std::snprintf(key, sizeof key, "pci:v%08Xd%08X", *vendor, *device);
  else
    std::snprintf(key, sizeof key, "pci:v%08X", *vendor);
  return hwdb_names(key);
}

std::pair<std::string, std::string> Scanner::usb_names(std::uint16_t vendor, std::uint16_t product) {
  if (!cfg_.hwdb_names) return {};
  const std::string v = "usb:v" + upper_hex4(vendor);
  return {hwdb_names(v).first, hwdb_names(v + "p" + upper_hex4(product)).second};
}

}  // namespace usbsat::topology::scanner
