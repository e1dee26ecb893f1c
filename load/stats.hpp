#pragma once
/// Per-worker statistics: Welford running mean/variance (fio add_stat_sample), the latency histogram, I/O
/// and byte counters and the per-second series. Each worker owns one; the runner merges them afterwards.
#include <cstdint>
#include <limits>
#include <vector>

#include "load/histogram.hpp"

namespace usbsat::load {

/// Welford's online mean and variance, mergeable (Chan et al.), with min and max.
class RunningStat {
 public:
  void add(double x) {
    ++n_;
    const double d = x - mean_;
    mean_ += d / static_cast<double>(n_);
    m2_ += d * (x - mean_);
    if (x < min_) min_ = x;
    if (x > max_) max_ = x;
  }
  void merge(const RunningStat& o);
  std::uint64_t count() const { return n_; }
  double mean() const { return n_ ? mean_ : 0.0; }
  /// Sample variance (n-1); 0 for fewer than two samples.
  double variance() const { return n_ > 1 ? m2_ / static_cast<double>(n_ - 1) : 0.0; }
  double stddev() const;
  double min() const { return n_ ? min_ : 0.0; }
  double max() const { return n_ ? max_ : 0.0; }

 private:
  std::uint64_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

/// CPU time consumed, from getrusage.
struct CpuTime {
  double user_s = 0;
  double sys_s = 0;
};

/// What one worker measured inside the measurement window of its phase.
struct WorkerStats {
  std::uint64_t ios = 0;  ///< completed I/Os (reads + writes)
  std::uint64_t read_ios = 0;
  std::uint64_t write_ios = 0;
  std::uint64_t bytes = 0;
  std::uint64_t errors = 0;   ///< failed completions (whole run, not only the window)
  LatencyHistogram lat_hist;  ///< completion latency in ns
  RunningStat lat_ns;
  std::vector<std::uint64_t> bytes_per_second;  ///< bytes completed in each second of the window
  std::int64_t measured_ns = 0;                 ///< length of the window this worker actually measured
  CpuTime cpu;                                  ///< RUSAGE_THREAD of the worker over its window

  double seconds() const { return static_cast<double>(measured_ns) / 1e9; }
  double mbs() const { return measured_ns > 0 ? static_cast<double>(bytes) / 1e6 / seconds() : 0.0; }
  double iops() const { return measured_ns > 0 ? static_cast<double>(ios) / seconds() : 0.0; }
  /// Sum counters and histograms; the window becomes the longer of the two.
  void merge(const WorkerStats& o);
};

}  // namespace usbsat::load
