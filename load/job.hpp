#pragma once
/// JobSpec: what one worker does to one target (fio's job options, the few usbsat needs), plus the pure
/// parsers for its command-line spellings and validate().
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::load {

enum class Pattern { Read, Write, RandRead, RandWrite, RandRW };

/// "read" … "randrw"; nullopt for anything else.
std::optional<Pattern> parse_pattern(std::string_view s);
std::string_view to_string(Pattern p);
bool is_random(Pattern p);
/// True when the pattern issues any write.
bool writes(Pattern p);

/// "4k", "128K", "1m", "1MiB", "512", "2g" → bytes (binary multiples); nullopt on garbage or overflow.
std::optional<std::uint64_t> parse_size(std::string_view s);
/// Inverse of parse_size for display and messages: "4k", "128k", "1m", "1536" (largest exact binary unit,
/// lower case; compare report::format_disk_size, decimal "500.1 GB").
std::string format_binary_size(std::uint64_t bytes);

struct JobSpec {
  Pattern pattern = Pattern::Read;
  unsigned rwmix_read = 50;  ///< randrw: percentage of reads (0..100)
  std::uint32_t block_size = 128 * 1024;
  unsigned queue_depth = 1;
  std::chrono::milliseconds runtime{10000};  ///< measured time per phase
  std::chrono::milliseconds ramp{1000};      ///< time per phase before measuring starts (excluded)
  std::uint64_t offset = 0;                  ///< start of the region
  std::uint64_t size = 0;                    ///< length of the region; 0 = to the end of the target
  std::uint64_t seed = 0x75736273;           ///< offsets are a pure function of (seed, target index)
};

/// The longest measured window and the longest ramp of one phase. They bound the run's time and the
/// per-second series (one counter per second of the window) whatever the command line says.
inline constexpr std::chrono::seconds kMaxRuntime{86400};
inline constexpr std::chrono::seconds kMaxRamp{3600};

/// Set `job.runtime` and `job.ramp` from seconds as typed on the command line (0.5, 1e3). Checked before
/// converting: runtime in [0.001 s, kMaxRuntime], ramp in [0, kMaxRamp], both finite. Returns the usage error
/// ("--runtime 1e+12 is out of range: give 0.001 to 86400 seconds"), empty when set.
std::string set_durations(JobSpec& job, double runtime_s, double ramp_s);

/// Target-independent checks; each message is one sentence. Empty = valid.
std::vector<std::string> validate(const JobSpec& job);

/// The byte range a job touches on a target of `target_size` bytes with logical block `lbs`.
struct Region {
  std::uint64_t start = 0;
  std::uint64_t length = 0;
};

/// Target-dependent checks (alignment to `lbs`, region inside the target and at least one block long).
/// Returns the region, or an error message.
struct RegionOrError {
  std::optional<Region> region;
  std::string error;
};
RegionOrError resolve_region(const JobSpec& job, std::uint64_t target_size, std::uint32_t lbs);

}  // namespace usbsat::load
