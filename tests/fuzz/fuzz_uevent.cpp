// Fuzz target: a device's uevent file (KEY=value lines), topology/sysfs_parse's parse_uevent.
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/model/sysfs_parse.hpp"

using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = usbsat::fuzz::as_text(data, size);
  for (const auto& [k, v] : usbsat::topology::parse_uevent(text)) {
    expect(k.find('\n') == std::string::npos && v.find('\n') == std::string::npos,
           "parse_uevent: one line each");
    expect(!k.empty(), "parse_uevent: no empty key");
  }
  return 0;
}
