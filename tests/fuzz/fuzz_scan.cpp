// Fuzz target: the whole read-only pipeline on a hostile sysfs. The in-memory system of the scan's unit tests
// (tests/support/fake_system.hpp) is the skeleton; the input rewrites some of its attribute files
// (descriptors, speeds, sizes, links' text, mountinfo...) with arbitrary bytes. Records: one byte picks the
// file, the value runs to the next 0xff byte. Then scan → doctor → the topo/drives/ports/doctor renderers
// (read_only_commands.hpp), text and JSON: one bad device is a diagnostic, never a crash, a hang or output
// that is not JSON.
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_common.hpp"
#include "tests/fuzz/read_only_commands.hpp"
#include "tests/support/fake_system.hpp"
#include "topology/model/errors.hpp"
#include "topology/scan/scan.hpp"

namespace tp = usbsat::topology;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const usbsat::testing::FakeSource skeleton = usbsat::testing::fake::system();
  static const std::vector<std::string> files = [] {
    auto f = skeleton.file_paths();
    f.push_back("/mi");  // the mountinfo text file
    return f;
  }();
  usbsat::testing::FakeSource source = skeleton;
  std::size_t i = 0;
  while (i < size) {
    const std::string& path = files[data[i] % files.size()];
    std::size_t end = i + 1;
    while (end < size && data[end] != 0xff) ++end;
    std::string value(reinterpret_cast<const char*>(data) + i + 1, end - i - 1);
    if (path == "/mi")
      source.text_file(path, std::move(value));
    else
      source.raw_file(path, std::move(value));
    i = end + 1;
  }
  tp::ScanConfig config;
  config.mountinfo_path = "/mi";
  config.include_virtual_block = (size & 1) != 0;
  tp::ScanResult scan;
  try {
    scan = tp::scan(source, config);
  } catch (const tp::ScanError& e) {
    // A mountinfo that is not in /proc/self/mountinfo's format is refused as a whole (--mountinfo names the
    // wrong file): the one environment error, with a sentence; nothing else may be thrown.
    usbsat::fuzz::expect(std::string_view(e.what()).find("mountinfo") != std::string_view::npos,
                         "only a malformed mountinfo refuses the scan");
    return 0;
  }
  usbsat::fuzz::run_read_only_commands(scan, "174c:55aa:u");
  return 0;
}
