#include "load/job.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace usbsat::load {
namespace {

struct PatternName {
  Pattern p;
  std::string_view name;
};
constexpr PatternName kPatterns[] = {{Pattern::Read, "read"},
                                     {Pattern::Write, "write"},
                                     {Pattern::RandRead, "randread"},
                                     {Pattern::RandWrite, "randwrite"},
                                     {Pattern::RandRW, "randrw"}};

}  // namespace

std::optional<Pattern> parse_pattern(std::string_view s) {
  for (const auto& e : kPatterns)
    if (e.name == s) return e.p;
  return std::nullopt;
}

std::string_view to_string(Pattern p) {
  for (const auto& e : kPatterns)
    if (e.p == p) return e.name;
  return "?";
}

bool is_random(Pattern p) {
  return p == Pattern::RandRead || p == Pattern::RandWrite || p == Pattern::RandRW;
}
bool writes(Pattern p) {
  return p == Pattern::Write || p == Pattern::RandWrite || p == Pattern::RandRW;
}

std::optional<std::uint64_t> parse_size(std::string_view s) {
  std::uint64_t v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc{} || p == s.data()) return std::nullopt;
  std::string_view unit(p, static_cast<std::size_t>(end - p));
  unsigned shift = 0;
  if (!unit.empty()) {
    switch (unit[0]) {
      case 'k':
      case 'K':
        shift = 10;
        break;
      case 'm':
      case 'M':
        shift = 20;
        break;
      case 'g':
      case 'G':
        shift = 30;
        break;
      case 't':
      case 'T':
        shift = 40;
        break;
      default:
        return std::nullopt;
    }
    unit.remove_prefix(1);
    if (!(unit.empty() || unit == "b" || unit == "B" || unit == "iB" || unit == "ib")) return std::nullopt;
  }
  if (shift && v > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  return v << shift;
}

std::string format_binary_size(std::uint64_t b) {
  constexpr struct {
    unsigned shift;
    char c;
  } kUnits[] = {{40, 't'}, {30, 'g'}, {20, 'm'}, {10, 'k'}};
  for (const auto& u : kUnits)
    if (b != 0 && b % (std::uint64_t{1} << u.shift) == 0) return std::to_string(b >> u.shift) + u.c;
  return std::to_string(b);
}

std::string set_durations(JobSpec& job, double runtime_s, double ramp_s) {
  const auto max_runtime = static_cast<double>(kMaxRuntime.count());
  const auto max_ramp = static_cast<double>(kMaxRamp.count());
  // The negated comparisons also reject NaN.
  auto out_of_range = [](std::string_view option, double v, double lo, double hi) {
    std::ostringstream s;
    s << option << ' ' << v << " is out of range: give " << lo << " to " << hi << " seconds";
    return s.str();
  };
  if (!(runtime_s >= 0.001 && runtime_s <= max_runtime))
    return out_of_range("--runtime", runtime_s, 0.001, max_runtime);
  if (!(ramp_s >= 0 && ramp_s <= max_ramp)) return out_of_range("--ramp", ramp_s, 0, max_ramp);
  job.runtime = std::chrono::milliseconds(std::llround(runtime_s * 1000));
  job.ramp = std::chrono::milliseconds(std::llround(ramp_s * 1000));
  return {};
}

std::vector<std::string> validate(const JobSpec& job) {
  std::vector<std::string> err;
  if (job.block_size == 0 || job.block_size % 512 != 0)
    err.push_back("block size must be a positive multiple of 512 bytes");
  if (job.block_size > (64u << 20)) err.push_back("block size must be at most 64m");
  if (job.queue_depth < 1 || job.queue_depth > 1024) err.push_back("queue depth must be between 1 and 1024");
  if (job.runtime.count() <= 0 || job.runtime > kMaxRuntime)
    err.push_back("runtime must be positive and at most " + std::to_string(kMaxRuntime.count()) + " s");
  if (job.ramp.count() < 0 || job.ramp > kMaxRamp)
    err.push_back("ramp must be between 0 and " + std::to_string(kMaxRamp.count()) + " s");
  if (job.rwmix_read > 100) err.push_back("rwmix must be between 0 and 100");
  if (job.offset % 512 != 0) err.push_back("offset must be a multiple of 512 bytes");
  return err;
}

RegionOrError resolve_region(const JobSpec& job, std::uint64_t target_size, std::uint32_t lbs) {
  if (lbs == 0) lbs = 512;
  if (job.block_size % lbs != 0)
    return {std::nullopt, "block size " + format_binary_size(job.block_size) +
                              " is not a multiple of the logical block size " + std::to_string(lbs)};
  if (job.offset % lbs != 0)
    return {std::nullopt, "offset is not a multiple of the logical block size " + std::to_string(lbs)};
  if (job.offset >= target_size) return {std::nullopt, "offset is beyond the end of the target"};
  std::uint64_t len = target_size - job.offset;
  if (job.size != 0 && job.size < len) len = job.size;
  len -= len % lbs;
  if (len < job.block_size) return {std::nullopt, "region is smaller than one block"};
  return {Region{job.offset, len}, {}};
}

}  // namespace usbsat::load
