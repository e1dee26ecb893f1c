#include <doctest/doctest.h>

#include "load/job.hpp"
#include "load/phases.hpp"

#include <cmath>
#include <limits>

using namespace usbsat::load;

TEST_CASE("parse_size and format_binary_size") {
  struct Row {
    const char* text;
    std::optional<std::uint64_t> v;
  };
  const Row rows[] = {{"4k", 4096},
                      {"128K", 131072},
                      {"1m", 1048576},
                      {"1MiB", 1048576},
                      {"512", 512},
                      {"2g", 2ull << 30},
                      {"1kb", 1024},
                      {"", {}},
                      {"k", {}},
                      {"4x", {}},
                      {"-1", {}},
                      {"4kk", {}},
                      {"99999999999999999999", {}},
                      {"20000000000000t", {}}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_size(r.text) == r.v);
  }
  CHECK(format_binary_size(4096) == "4k");
  CHECK(format_binary_size(1 << 20) == "1m");
  CHECK(format_binary_size(1536) == "1536");
  for (std::uint64_t v : {512ull, 4096ull, 131072ull, 3ull << 30})
    CHECK(parse_size(format_binary_size(v)) == v);
}

TEST_CASE("parse_pattern round-trips and classifies") {
  for (auto p : {Pattern::Read, Pattern::Write, Pattern::RandRead, Pattern::RandWrite, Pattern::RandRW})
    CHECK(parse_pattern(to_string(p)) == p);
  CHECK_FALSE(parse_pattern("rw"));
  CHECK(writes(Pattern::RandRW));
  CHECK_FALSE(writes(Pattern::RandRead));
  CHECK(is_random(Pattern::RandWrite));
  CHECK_FALSE(is_random(Pattern::Write));
}

TEST_CASE("validate rejects each bad field") {
  CHECK(validate(JobSpec{}).empty());
  auto bad = [](auto mutate) {
    JobSpec j;
    mutate(j);
    return validate(j).size();
  };
  CHECK(bad([](JobSpec& j) { j.block_size = 0; }) == 1);
  CHECK(bad([](JobSpec& j) { j.block_size = 1000; }) == 1);
  CHECK(bad([](JobSpec& j) { j.queue_depth = 0; }) == 1);
  CHECK(bad([](JobSpec& j) { j.queue_depth = 5000; }) == 1);
  CHECK(bad([](JobSpec& j) { j.runtime = std::chrono::milliseconds(0); }) == 1);
  CHECK(bad([](JobSpec& j) { j.ramp = std::chrono::milliseconds(-1); }) == 1);
  CHECK(bad([](JobSpec& j) { j.rwmix_read = 101; }) == 1);
  CHECK(bad([](JobSpec& j) { j.offset = 100; }) == 1);
}

TEST_CASE("resolve_region clamps to the target and checks alignment") {
  JobSpec j;
  j.block_size = 4096;
  auto r = resolve_region(j, 1 << 20, 512);
  REQUIRE(r.region);
  CHECK(r.region->start == 0);
  CHECK(r.region->length == 1 << 20);
  j.offset = 4096;
  j.size = 8192;
  r = resolve_region(j, 1 << 20, 4096);
  REQUIRE(r.region);
  CHECK(r.region->start == 4096);
  CHECK(r.region->length == 8192);
  j.size = 0;
  j.offset = 512;
  CHECK_FALSE(resolve_region(j, 1 << 20, 4096).region);  // offset not aligned to 4k sectors
  j.offset = 0;
  j.block_size = 512;
  CHECK_FALSE(resolve_region(j, 1 << 20, 4096).region);  // bs below the logical block
  j.block_size = 4096;
  CHECK_FALSE(resolve_region(j, 2048, 512).region);  // smaller than one block
  j.offset = 1 << 20;
  CHECK_FALSE(resolve_region(j, 1 << 20, 512).region);  // beyond the end
}

TEST_CASE("plan_phases: each alone, then the first N, duplicates dropped") {
  const unsigned l124[] = {1, 2, 4};
  CHECK(plan_phases(4, l124) == std::vector<PhaseTargets>{{0}, {1}, {2}, {3}, {0, 1}, {0, 1, 2, 3}});
  CHECK(plan_phases(2, l124) == std::vector<PhaseTargets>{{0}, {1}, {0, 1}});
  const unsigned l24[] = {2, 4};
  CHECK(plan_phases(3, l24) == std::vector<PhaseTargets>{{0, 1}, {0, 1, 2}});
  CHECK(plan_phases(3, {}) == std::vector<PhaseTargets>{{0, 1, 2}});
  const unsigned l1[] = {1};
  CHECK(plan_phases(1, l1) == std::vector<PhaseTargets>{{0}});
}

TEST_CASE("set_durations: runtime and ramp are range-checked before converting (no overflow, no NaN)") {
  struct Row {
    double runtime, ramp;
    const char* error;  ///< fragment, "" = accepted
  };
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const Row rows[] = {{10, 1, ""},
                      {0.001, 0, ""},
                      {86400, 3600, ""},
                      {1e12, 1, "--runtime 1e+12 is out of range: give 0.001 to 86400 seconds"},
                      {1e10, 1, "--runtime 1e+10 is out of range"},
                      {1e9, 1, "--runtime 1e+09 is out of range"},
                      {1e16, 1, "--runtime 1e+16 is out of range"},
                      {86400.5, 1, "--runtime"},
                      {0.0004, 1, "--runtime 0.0004 is out of range"},
                      {0, 1, "--runtime 0 is out of range"},
                      {-1, 1, "--runtime -1"},
                      {nan, 1, "--runtime nan"},
                      {inf, 1, "--runtime inf"},
                      {10, 1e12, "--ramp 1e+12 is out of range: give 0 to 3600 seconds"},
                      {10, -0.5, "--ramp -0.5"},
                      {10, nan, "--ramp nan"}};
  for (const auto& r : rows) {
    CAPTURE(r.runtime);
    CAPTURE(r.ramp);
    JobSpec j;
    const auto e = set_durations(j, r.runtime, r.ramp);
    if (*r.error == '\0') {
      CHECK(e.empty());
      CHECK(j.runtime == std::chrono::milliseconds(std::llround(r.runtime * 1000)));
      CHECK(validate(j).empty());
    } else {
      CHECK(e.find(r.error) != std::string::npos);
    }
  }
  JobSpec j;
  j.runtime = std::chrono::hours(25);
  CHECK(validate(j).size() == 1);  // validate() bounds a JobSpec built any other way too
}

TEST_CASE("check_levels: --concurrency 0 runs nothing and is refused") {
  const std::vector<unsigned> ok{1, 2, 4}, zero{0}, mixed{1, 0};
  CHECK_FALSE(check_levels(ok));
  CHECK_FALSE(check_levels({}));
  REQUIRE(check_levels(zero));
  CHECK(check_levels(zero)->find("--concurrency 0 runs nothing") == 0);
  CHECK(check_levels(mixed));
}
