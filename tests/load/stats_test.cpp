#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "load/stats.hpp"

using usbsat::load::RunningStat;
using usbsat::load::WorkerStats;

TEST_CASE("Welford matches the two-pass mean and variance") {
  const std::vector<double> xs = {2, 4, 4, 4, 5, 5, 7, 9, 1e6, 3.5};
  RunningStat s;
  for (double x : xs) s.add(x);
  const double mean = std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(xs.size());
  double ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  CHECK(s.count() == xs.size());
  CHECK(s.mean() == doctest::Approx(mean));
  CHECK(s.variance() == doctest::Approx(ss / static_cast<double>(xs.size() - 1)));
  CHECK(s.min() == 2);
  CHECK(s.max() == 1e6);
}

TEST_CASE("Welford merge equals adding everything to one") {
  RunningStat all, a, b, empty;
  for (int i = 0; i < 500; ++i) {
    const double x = std::sin(i) * 100 + i;
    all.add(x);
    (i % 3 ? a : b).add(x);
  }
  RunningStat m = a;
  m.merge(b);
  m.merge(empty);
  CHECK(m.count() == all.count());
  CHECK(m.mean() == doctest::Approx(all.mean()));
  CHECK(m.variance() == doctest::Approx(all.variance()));
  CHECK(m.min() == all.min());
  CHECK(m.max() == all.max());
  RunningStat e;
  e.merge(a);
  CHECK(e.mean() == doctest::Approx(a.mean()));
  CHECK(RunningStat{}.variance() == 0);
}

TEST_CASE("WorkerStats merge sums counters and series, throughput uses the window") {
  WorkerStats a, b;
  a.bytes = 2'000'000;
  a.ios = 10;
  a.measured_ns = 1'000'000'000;
  a.bytes_per_second = {1, 2};
  b.bytes = 1'000'000;
  b.ios = 5;
  b.measured_ns = 2'000'000'000;
  b.bytes_per_second = {3, 4, 5};
  CHECK(a.mbs() == doctest::Approx(2.0));
  CHECK(a.iops() == doctest::Approx(10.0));
  a.merge(b);
  CHECK(a.bytes == 3'000'000);
  CHECK(a.ios == 15);
  CHECK(a.bytes_per_second == std::vector<std::uint64_t>{4, 6, 5});
  CHECK(a.measured_ns == 2'000'000'000);
  CHECK(WorkerStats{}.mbs() == 0);
}
