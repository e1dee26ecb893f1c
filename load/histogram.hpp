#pragma once
/// Log-linear latency histogram, fio's scheme (stat.h "EXECUTIVE SUMMARY").
///
/// EXECUTIVE SUMMARY: values (nanoseconds) are grouped by their most significant bit; each group is split
/// into 2^6 = 64 equal buckets. Values below 128 ns get one bucket each (exact). Above that, a bucket of
/// group m (2^m ≤ v < 2^(m+1)) is 2^(m-6) wide, so reporting the bucket midpoint has a relative error of at
/// most 1/128 ≈ 0.8%. With 29 groups the histogram covers up to 2^34 ns ≈ 17 s (larger values land in the
/// last bucket; the exact maximum is kept separately). 29 × 64 = 1856 buckets of 8 bytes ≈ 15 KiB per
/// worker. Recording is a bit scan, a shift and an increment: no allocation, no lock.
#include <array>
#include <cstdint>

namespace usbsat::load {

class LatencyHistogram {
 public:
  static constexpr unsigned kBits = 6;
  static constexpr unsigned kVal = 1u << kBits;  // buckets per group
  static constexpr unsigned kGroups = 29;
  static constexpr unsigned kBuckets = kGroups * kVal;

  /// Bucket index of a value (fio plat_val_to_idx).
  static unsigned index_of(std::uint64_t v) {
    if (v < 2 * kVal) return static_cast<unsigned>(v);
    const unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(v));
    const unsigned error_bits = msb - kBits;
    const unsigned base = (error_bits + 1) << kBits;
    const unsigned idx = base + static_cast<unsigned>((v >> error_bits) & (kVal - 1));
    return idx < kBuckets ? idx : kBuckets - 1;
  }
  /// Representative value of a bucket: exact below 128, else the bucket's midpoint (fio plat_idx_to_val).
  static std::uint64_t value_of(unsigned idx);
  /// Lowest value that maps to bucket `idx`.
  static std::uint64_t lower_bound_of(unsigned idx);

  void record(std::uint64_t v) {
    ++counts_[index_of(v)];
    ++total_;
  }
  void merge(const LatencyHistogram& o);
  /// The value at quantile q in [0,1] (smallest bucket whose cumulative count reaches ceil(q·total)); 0 when
  /// empty.
  std::uint64_t percentile(double q) const;
  std::uint64_t count() const { return total_; }
  std::uint64_t bucket(unsigned idx) const { return counts_[idx]; }
  bool operator==(const LatencyHistogram&) const = default;

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t total_ = 0;
};

}  // namespace usbsat::load
