// Fuzz target: `saturate --group NAME=dev,dev[@CAP]` values (src/analysis/common/group_spec). The input,
// split at newlines, is several --group options: each is refused with a sentence or parsed into a group with
// a name, at least two distinct paths and a capacity inside the documented range.
#include <algorithm>
#include <vector>

#include "src/analysis/common/group_spec.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using usbsat::fuzz::expect;
namespace sat = usbsat::analysis::common;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = usbsat::fuzz::as_text(data, size);
  std::vector<sat::GroupSpec> specs;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    const auto line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    std::string error;
    if (auto g = sat::parse_group_spec(line, &error)) {
      expect(!g->name.empty(), "group: a name");
      expect(g->paths.size() >= 2, "group: two paths or more");
      auto sorted = g->paths;
      std::sort(sorted.begin(), sorted.end());
      expect(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), "group: distinct paths");
      if (g->capacity)
        expect(static_cast<double>(g->capacity->bytes_per_s) >= sat::kMinGroupCapacity &&
                   static_cast<double>(g->capacity->bytes_per_s) <= sat::kMaxGroupCapacity,
               "group: capacity in range");
      specs.push_back(std::move(*g));
    } else {
      expect(!error.empty(), "group: a refused value says why");
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  (void)sat::check_group_specs(specs);
  return 0;
}
