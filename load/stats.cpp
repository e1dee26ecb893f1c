#include "load/stats.hpp"

#include <algorithm>
#include <cmath>

namespace usbsat::load {

void RunningStat::merge(const RunningStat& o) {
  if (o.n_ == 0) return;
  if (n_ == 0) {
    *this = o;
    return;
  }
  const auto n = n_ + o.n_;
  const double d = o.mean_ - mean_;
  const double na = static_cast<double>(n_), nb = static_cast<double>(o.n_);
  mean_ += d * nb / static_cast<double>(n);
  m2_ += o.m2_ + d * d * na * nb / static_cast<double>(n);
  n_ = n;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

double RunningStat::stddev() const {
  return std::sqrt(variance());
}

void WorkerStats::merge(const WorkerStats& o) {
  ios += o.ios;
  read_ios += o.read_ios;
  write_ios += o.write_ios;
  bytes += o.bytes;
  errors += o.errors;
  lat_hist.merge(o.lat_hist);
  lat_ns.merge(o.lat_ns);
  if (bytes_per_second.size() < o.bytes_per_second.size()) bytes_per_second.resize(o.bytes_per_second.size());
  for (std::size_t i = 0; i < o.bytes_per_second.size(); ++i) bytes_per_second[i] += o.bytes_per_second[i];
  measured_ns = std::max(measured_ns, o.measured_ns);
  cpu.user_s += o.cpu.user_s;
  cpu.sys_s += o.cpu.sys_s;
}

}  // namespace usbsat::load
