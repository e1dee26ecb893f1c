// Fuzz target: /proc/self/mountinfo text as the one reader parses it (topology/mountinfo, used by the scan's
// mount points and by load's write safety). Malformed lines are skipped.
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/base/mountinfo.hpp"

using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = usbsat::fuzz::as_text(data, size);
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  const auto mounts = usbsat::topology::parse_mountinfo(text);
  expect(mounts.size() <= lines, "parse_mountinfo: at most one entry per line");
  for (const auto& m : mounts)
    expect(!m.fstype.empty() && !m.source.empty() && !m.mount_point.empty(),
           "parse_mountinfo: a mount point, and a type and a source after \" - \"");
  return 0;
}
