// Fuzz target: /proc/self/mountinfo text, as both readers parse it (the scan's mount points per device,
// topology/sysfs_parse; the write-safety check's mount entries, load/safety). Malformed lines are skipped.
#include "load/safety.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/sysfs_parse.hpp"

using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = usbsat::fuzz::as_text(data, size);
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  std::size_t mounts = 0;
  for (const auto& [dev, points] : usbsat::topology::parse_mountinfo(text)) mounts += points.size();
  expect(mounts <= lines, "topology::parse_mountinfo: at most one mount per line");
  expect(usbsat::load::parse_mountinfo(text).size() <= lines, "load::parse_mountinfo: at most one entry per line");
  return 0;
}
