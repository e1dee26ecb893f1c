// Facts about the USB storage driver modules (ScanResult::host), for doctor's checks.
#include "topology/base/text.hpp"
#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {

HostFacts Scanner::host_facts() {
  HostFacts h;
  if (const auto& q = storage_quirks_text()) h.usb_storage_quirks = std::string(trim(*q));
  // A loaded (or built-in) module has its directory; list() of a missing one is empty.
  h.uas_driver_loaded = !src_.list("/sys/module/uas", "").empty();
  return h;
}

}  // namespace usbsat::topology::scanner
