// Fuzz target: the binary `descriptors` and `bos_descriptors` attributes (topology/descriptors). Both
// parsers take any bytes; what they return must describe only bytes that were there.
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/scan/descriptors.hpp"

using namespace usbsat::topology;
using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = usbsat::fuzz::as_text(data, size);
  const UsbDescriptors d = parse_usb_descriptors(bytes);
  // Every interface descriptor is at least 9 bytes of input.
  std::size_t interfaces = 0;
  for (const auto& c : d.configs) interfaces += c.interfaces.size();
  expect(interfaces * 9 <= size, "parse_usb_descriptors: no more interfaces than the bytes hold");
  for (const auto& c : d.configs)
    for (const auto& i : c.interfaces) {
      (void)d.alt_settings(i.interface_number, c.value);
      (void)d.may_have_interface_string(i.interface_number, c.value);
    }
  (void)parse_bos_descriptors(bytes);
  return 0;
}
