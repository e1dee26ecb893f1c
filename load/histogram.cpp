#include "load/histogram.hpp"

#include <cmath>

namespace usbsat::load {

std::uint64_t LatencyHistogram::lower_bound_of(unsigned idx) {
  if (idx < 2 * kVal) return idx;
  const unsigned error_bits = (idx >> kBits) - 1;
  const std::uint64_t base = std::uint64_t{1} << (error_bits + kBits);
  return base + static_cast<std::uint64_t>(idx % kVal) * (std::uint64_t{1} << error_bits);
}

std::uint64_t LatencyHistogram::value_of(unsigned idx) {
  if (idx < 2 * kVal) return idx;
  const unsigned error_bits = (idx >> kBits) - 1;
  return lower_bound_of(idx) + ((std::uint64_t{1} << error_bits) >> 1);
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (unsigned i = 0; i < kBuckets; ++i) counts_[i] += o.counts_[i];
  total_ += o.total_;
}

std::uint64_t LatencyHistogram::percentile(double q) const {
  if (total_ == 0) return 0;
  if (q < 0) q = 0;
  if (q > 1) q = 1;
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(total_)));
  if (rank == 0) rank = 1;
  std::uint64_t cum = 0;
  for (unsigned i = 0; i < kBuckets; ++i) {
    cum += counts_[i];
    if (cum >= rank) return value_of(i);
  }
  return value_of(kBuckets - 1);
}

}  // namespace usbsat::load
