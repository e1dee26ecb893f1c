#pragma once
/// The settle rule: when has a throughput series stopped changing? fio's steady-state detection
/// (`--steadystate=bw:2%`, `bw_slope`, `ss_dur`, `ss_ramp`) is the model, both of its criteria at once:
///
///  * samples: every tick (250 ms) the rate over the last `span` ticks (750 ms: overlapping samples). A
///    worker's completions arrive in bursts (a throttle's 100 ms slices, a late wake-up of 20-50 ms), so a
///    rate over 250 ms alone strays ±10% on the loop-device bed where a 750 ms one stays within ±1.5%;
///  * ramp: samples that start before `ramp` are not looked at (fio's ss_ramp);
///  * window: the samples that lie within the last `window` ticks (1.5 s, 4 samples; fio's ss_dur);
///  * level: every sample of the window lies within ±`bound` of the window's mean (fio's `bw:5%`; on a
///    machine busy compiling, the bed's 750 ms rates stray up to ±4%, idle ±1.5%);
///  * slope: the least-squares line through the window's samples moves by at most `slope` × mean over the
///    window's length (fio's `bw_slope`, as a fraction of the mean per window rather than per second).
///
/// The series has settled at the first tick where both hold; a step in the rate enters the window and keeps
/// it from settling until the window has slid past it, and a drift, however smooth, fails the slope. Pure.
#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace usbsat::load {

struct SteadyRule {
  std::chrono::milliseconds tick{250};  ///< one sample per tick
  std::chrono::milliseconds ramp{500};  ///< samples starting earlier are ignored
  std::size_t span = 3;                 ///< ticks one sample's rate is taken over
  std::size_t window = 6;               ///< ticks the criteria look back over (>= span)
  double bound = 0.05;                  ///< level: max |sample - mean| / mean
  double slope = 0.05;                  ///< slope: |fitted change over the window| / mean
  /// The window as a duration (window × tick).
  std::chrono::milliseconds window_time() const { return tick * static_cast<long>(window); }
  /// Samples in a full window.
  std::size_t samples() const { return window >= span ? window - span + 1 : 1; }
};

/// What the window shows: its mean and how far the samples stray from it, as fractions of the mean.
struct WindowStats {
  double mean = 0;    ///< mean of the window's samples
  double spread = 0;  ///< max |sample - mean| / mean (the level criterion's figure)
  double drift = 0;   ///< |least-squares slope| × window samples / mean (the slope criterion's figure)
};

/// The figures of one window of samples, one per tick, over a window of `window_ticks` ticks (no samples,
/// or a mean of zero: spread and drift 1, so an empty or dead series never passes).
WindowStats window_stats(std::span<const double> samples, std::size_t window_ticks);

/// True when `w` passes both criteria of `rule`.
bool within(const WindowStats& w, const SteadyRule& rule);

/// Feeds one series, a sample at a time, and says when it has settled (see the rule above).
class SteadyDetector {
 public:
  explicit SteadyDetector(const SteadyRule& rule) : rule_(rule) {}

  /// One sample: the rate over the `span` ticks that ended `at` after the phase started.
  void add(std::chrono::nanoseconds at, double rate);
  /// The last window is full and passes the rule.
  bool settled() const;
  /// The figures of the current window (of fewer samples while it fills).
  WindowStats window() const;
  /// Samples in the window so far (at most rule.samples()).
  std::size_t size() const { return samples_.size(); }

 private:
  SteadyRule rule_;
  std::deque<double> samples_;
};

/// Table form: feed `series` (sample i ends at (i + 1) × tick) and return how many ticks it took to settle,
/// nullopt when it never did.
std::optional<std::size_t> settle_after(std::span<const double> series, const SteadyRule& rule);

/// `--steady` as typed: "on" (the default rule), "off" (nullopt: fixed-length phases), or a bound such as
/// "2%" or "0.02" for both criteria (0.5% to 50%). `error` is the usage error, empty when parsed.
struct SteadyChoice {
  std::optional<SteadyRule> rule;
  std::string error;
};
SteadyChoice parse_steady(std::string_view s);

}  // namespace usbsat::load
