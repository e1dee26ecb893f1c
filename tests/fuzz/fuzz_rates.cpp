// Fuzz target: the numbers users type: rates (`--demand`, group capacities: topology::parse_rate and plan's
// --demand list), sizes (`--bs`, `--size`, `--offset`, `--max-buffer-memory`) and load patterns. A value is
// either refused with a message or within the promised range; never NaN, infinite, zero or wrapped.
#include <cmath>
#include <string>
#include <vector>

#include "load/buffer.hpp"
#include "load/job.hpp"
#include "src/analysis/plan/demands.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "topology/capacity/bandwidth.hpp"

using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view s = usbsat::fuzz::as_text(data, size);
  if (auto r = usbsat::topology::parse_rate(s))
    expect(std::isfinite(r->mbs()) && r->mbs() > 0, "parse_rate: finite and positive");
  (void)usbsat::load::parse_size(s);
  (void)usbsat::load::parse_pattern(s);
  const auto limit = usbsat::load::parse_buffer_limit(s, 1ull << 34);
  if (limit.error.empty())
    expect(limit.bytes >= (1u << 20) && limit.bytes <= (1ull << 34), "parse_buffer_limit: range");
  // --demand values: the input split at ',' as repeated options.
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start <= s.size()) {
    const auto comma = s.find(',', start);
    args.emplace_back(
        s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  namespace plan = usbsat::analysis::plan;
  const auto d = plan::parse_demands(args);
  if (d.error.empty()) {
    if (d.demands.common)
      expect(*d.demands.common >= plan::kMinDemand && *d.demands.common <= plan::kMaxDemand, "demand: range");
    for (const auto& [dev, bw] : d.demands.per_drive) {
      expect(!dev.empty(), "demand: a named drive");
      expect(bw >= plan::kMinDemand && bw <= plan::kMaxDemand, "per-drive demand: range");
    }
    (void)plan::unknown_demand(d.demands, args);
  }
  return 0;
}
