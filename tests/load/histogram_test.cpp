#include <doctest/doctest.h>

#include <random>

#include "load/histogram.hpp"

using usbsat::load::LatencyHistogram;

TEST_CASE("histogram buckets round-trip: every value maps into a bucket whose range contains it") {
  for (std::uint64_t v : {0ull, 1ull, 63ull, 127ull, 128ull, 129ull, 255ull, 256ull, 1000ull, 4095ull,
                          4096ull, 123456ull, 1'000'000ull, 999'999'999ull, 17'000'000'000ull}) {
    CAPTURE(v);
    const unsigned i = LatencyHistogram::index_of(v);
    REQUIRE(i < LatencyHistogram::kBuckets);
    CHECK(LatencyHistogram::lower_bound_of(i) <= v);
    if (i + 1 < LatencyHistogram::kBuckets) CHECK(v < LatencyHistogram::lower_bound_of(i + 1));
    CHECK(LatencyHistogram::index_of(LatencyHistogram::value_of(i)) == i);
    CHECK(LatencyHistogram::index_of(LatencyHistogram::lower_bound_of(i)) == i);
  }
}

TEST_CASE("histogram is exact below 128 ns and within 0.8% above") {
  for (std::uint64_t v = 0; v < 128; ++v)
    CHECK(LatencyHistogram::value_of(LatencyHistogram::index_of(v)) == v);
  std::mt19937_64 rng(7);
  for (int k = 0; k < 100000; ++k) {
    const std::uint64_t v = 128 + rng() % 16'000'000'000ull;
    const double rep = static_cast<double>(LatencyHistogram::value_of(LatencyHistogram::index_of(v)));
    REQUIRE(std::abs(rep - static_cast<double>(v)) / static_cast<double>(v) <= 1.0 / 128 + 1e-12);
  }
}

TEST_CASE("histogram index and value are monotonic") {
  unsigned last = 0;
  for (std::uint64_t v = 0; v < 2'000'000; v += 37) {
    const unsigned i = LatencyHistogram::index_of(v);
    REQUIRE(i >= last);
    last = i;
  }
  for (unsigned i = 1; i < LatencyHistogram::kBuckets; ++i)
    REQUIRE(LatencyHistogram::value_of(i) > LatencyHistogram::value_of(i - 1));
}

TEST_CASE("histogram percentiles") {
  LatencyHistogram h;
  CHECK(h.percentile(0.5) == 0);
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v);
  CHECK(h.count() == 100);
  CHECK(h.percentile(0.5) == 50);
  CHECK(h.percentile(0.99) == 99);
  CHECK(h.percentile(1.0) == 100);
  CHECK(h.percentile(0.0) == 1);
  h.record(1'000'000);
  const double p = static_cast<double>(h.percentile(1.0));
  CHECK(p == doctest::Approx(1e6).epsilon(0.008));
}

TEST_CASE("histogram percentiles round a fractional rank up (nearest-rank method)") {
  // Values below 128 have a bucket each, so the answers are exact. The rank is ceil(q * count): with 3
  // samples the median is rank ceil(1.5) = 2, p90 is rank ceil(2.7) = 3; with 10 samples p25 is rank
  // ceil(2.5) = 3 and p95 rank ceil(9.5) = 10. Rounding down would give 1, 2, 2 and 9.
  LatencyHistogram three;
  for (std::uint64_t v : {10, 20, 30}) three.record(v);
  CHECK(three.percentile(0.5) == 20);
  CHECK(three.percentile(0.9) == 30);
  CHECK(three.percentile(0.34) == 20);  // rank ceil(1.02) = 2
  LatencyHistogram ten;
  for (std::uint64_t v = 1; v <= 10; ++v) ten.record(v);
  CHECK(ten.percentile(0.25) == 3);
  CHECK(ten.percentile(0.95) == 10);
  CHECK(ten.percentile(0.01) == 1);  // rank ceil(0.1) = 1
}

TEST_CASE("histogram merge is associative and commutative") {
  std::mt19937_64 rng(3);
  LatencyHistogram a, b, c;
  for (int i = 0; i < 1000; ++i) {
    a.record(rng() % 100000);
    b.record(rng() % 10'000'000);
    c.record(rng() % 500);
  }
  LatencyHistogram ab_c = a;
  ab_c.merge(b);
  ab_c.merge(c);
  LatencyHistogram bc = b;
  bc.merge(c);
  LatencyHistogram a_bc = a;
  a_bc.merge(bc);
  CHECK(ab_c == a_bc);
  LatencyHistogram cba = c;
  cba.merge(b);
  cba.merge(a);
  CHECK(cba == ab_c);
  CHECK(ab_c.count() == 3000);
}
