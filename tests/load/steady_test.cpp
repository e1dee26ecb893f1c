#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "load/steady.hpp"
#include "load/steady_sampler.hpp"

using namespace usbsat::load;
using namespace std::chrono_literals;

namespace {

/// `n` samples of `f(i)`.
template <class F>
std::vector<double> series(std::size_t n, F f) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(f(i));
  return v;
}

}  // namespace

TEST_CASE("settle_after: a table of series against the default rule") {
  const SteadyRule rule;  // 250 ms ticks of 750 ms rates, 500 ms ramp, 1.5 s window, 5% level and slope
  REQUIRE(rule.window_time() == 1500ms);
  REQUIRE(rule.samples() == 4);
  struct Row {
    std::string what;
    std::vector<double> samples;
    std::optional<std::size_t> settles_after;
  };
  const std::vector<Row> rows = {
      // Samples starting in the 0.5 s ramp are ignored (the first four), then four flat ones fill the 1.5 s
      // window: 8 ticks, 2.0 s.
      {"flat settles after ramp + window", series(20, [](auto) { return 170.0; }), 8},
      // An overshoot inside the ramp (the bed's first ~100 ms) is not looked at.
      {"overshoot in the ramp is ignored", series(20, [](auto i) { return i < 2 ? 300.0 : 170.0; }), 8},
      // An overshoot after the ramp keeps the window out until it has slid past.
      {"late overshoot delays", series(20, [](auto i) { return i < 6 ? 250.0 : 170.0; }), 10},
      // 1.5% per tick: the level criterion alone passes (±2.25% over four samples), the slope (9% per
      // window) does not.
      {"slow drift never settles", series(30, [](auto i) { return 100.0 * (1 + 0.015 * double(i)); }),
       std::nullopt},
      // A step before the window filled: it must hold four samples of the new level.
      {"step resets the window", series(20, [](auto i) { return i < 6 ? 100.0 : 80.0; }), 10},
      // ±1.5% around the mean, alternating: within the 5% bound, no trend (the fitted line: 3.6% per window).
      {"noise within the bound settles", series(20, [](auto i) { return i % 2 ? 98.5 : 101.5; }), 8},
      {"noise beyond the bound never settles", series(20, [](auto i) { return i % 2 ? 94.0 : 106.0; }),
       std::nullopt},
      {"a dead drive never settles", series(20, [](auto) { return 0.0; }), std::nullopt},
      {"too short to fill a window", series(7, [](auto) { return 170.0; }), std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.what);
    CHECK(settle_after(r.samples, rule) == r.settles_after);
  }
}

TEST_CASE("window_stats: the level and slope figures of a window") {
  const auto flat = window_stats(std::vector<double>{10, 10, 10, 10}, 4);
  CHECK(flat.mean == doctest::Approx(10));
  CHECK(flat.spread == doctest::Approx(0));
  CHECK(flat.drift == doctest::Approx(0));
  // 9, 10, 11: slope 1 per sample, 3 per window of 3 samples, over a mean of 10.
  const auto ramp = window_stats(std::vector<double>{9, 10, 11}, 3);
  CHECK(ramp.mean == doctest::Approx(10));
  CHECK(ramp.spread == doctest::Approx(0.1));
  CHECK(ramp.drift == doctest::Approx(0.3));
  CHECK_FALSE(within(window_stats(std::vector<double>{}, 6), SteadyRule{}));
}

TEST_CASE("SteadyDetector: a settled series that steps is no longer settled until the window refills") {
  SteadyRule rule;
  rule.ramp = 0ms;
  rule.span = 1;  // a sample per tick, four in the window
  rule.window = 4;
  SteadyDetector d(rule);
  auto tick = [&, t = std::chrono::nanoseconds(0)](double rate) mutable {
    t += rule.tick;
    d.add(t, rate);
  };
  for (int i = 0; i < 4; ++i) tick(50);
  CHECK(d.settled());
  tick(60);
  CHECK_FALSE(d.settled());
  for (int i = 0; i < 3; ++i) {
    tick(60);
    CHECK(d.settled() == (i == 2));
  }
  CHECK(d.settled());
  CHECK(d.window().mean == doctest::Approx(60));
  CHECK(d.size() == 4);
}

TEST_CASE("parse_steady: on, off and a bound") {
  struct Row {
    std::string in;
    bool rule;
    double bound;
    bool error;
  };
  const std::vector<Row> rows = {
      {"on", true, 0.05, false},   {"off", false, 0, false},  {"5%", true, 0.05, false},
      {"0.01", true, 0.01, false}, {"0", false, 0, true},     {"80%", false, 0, true},
      {"2 %", false, 0, true},     {"often", false, 0, true}, {"", false, 0, true},
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    const auto c = parse_steady(r.in);
    CHECK(c.rule.has_value() == r.rule);
    CHECK(c.error.empty() == !r.error);
    if (c.rule) CHECK(c.rule->bound == doctest::Approx(r.bound));
    if (c.rule) CHECK(c.rule->slope == doctest::Approx(r.bound));
  }
}

TEST_CASE("SteadySampler: rates between a worker's marks, whatever the batch it counts in") {
  // Two targets: each completes 1 MB every 40 ms (25 MB/s, counted a batch at a time, so the bytes seen at
  // a tick lag by up to a batch: 18 or 19 batches in 750 ms, ±2.7%; between marks the rate is exact).
  const SteadyRule rule;  // 250 ms ticks, 500 ms ramp, 6 samples
  const std::int64_t start = 5'000'000'000;
  SteadySampler s(rule, 2, start);
  constexpr std::int64_t kMs = 1'000'000;
  auto mark_at = [&](std::int64_t t_ms, std::int64_t every_ms, std::int64_t until_ms) {
    const std::int64_t last = std::min(t_ms, until_ms) / every_ms * every_ms;  // the last batch counted
    return LiveMark{static_cast<std::uint64_t>(last / every_ms) * 1'000'000, start + last * kMs};
  };
  std::optional<int> settled_at;
  for (int k = 1; k <= 16 && !settled_at; ++k) {
    const std::int64_t t = 250 * k;
    const std::vector<LiveMark> marks = {mark_at(t, 40, 1'000'000), mark_at(t, 40, 1'000'000)};
    if (s.add(start + t * kMs, marks)) settled_at = k;
  }
  REQUIRE(settled_at.has_value());
  CHECK(*settled_at == 8);  // ramp (2 ticks) + window (6): no lag in the rates
  const auto o = s.outcome(start + 3'000 * kMs);
  CHECK(o.settled);
  CHECK(o.after_ns == 2'000 * kMs);
  REQUIRE(o.targets.size() == 2);
  CHECK(o.targets[0].mbs == doctest::Approx(25));
  CHECK(o.spread() == doctest::Approx(0).epsilon(1e-9));

  // Two targets that share a link and swing ±20% against each other (three ticks up, three down) while
  // their sum holds at 100 MB/s: the phase settles on its aggregate, each target's own spread is kept.
  SteadySampler shared(rule, 2, start);
  std::uint64_t a_bytes = 0, b_bytes = 0;
  std::optional<int> shared_at;
  for (int k = 1; k <= 16 && !shared_at; ++k) {
    const double a_mbs = 50 + 10 * ((k / 3) % 2 ? 1 : -1);
    a_bytes += static_cast<std::uint64_t>(a_mbs * 250'000);
    b_bytes += static_cast<std::uint64_t>((100 - a_mbs) * 250'000);
    const std::int64_t t = start + 250 * k * kMs;
    const std::vector<LiveMark> marks = {{a_bytes, t}, {b_bytes, t}};
    if (shared.add(t, marks)) shared_at = k;
  }
  CHECK(shared_at == 8);
  const auto so = shared.outcome(start + 2'000 * kMs);
  CHECK(so.total.mbs == doctest::Approx(100));
  CHECK(so.spread() == doctest::Approx(0).epsilon(1e-9));
  CHECK(so.targets[0].spread > 0.05);
}
