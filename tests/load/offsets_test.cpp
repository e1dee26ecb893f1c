#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "load/offsets.hpp"

using namespace usbsat::load;

TEST_CASE("random offsets fall on the region's whole blocks, inside it, uniformly") {
  const Region region{1 << 20, (64 << 20) + 4096};  // 512 whole 128 KiB blocks and a partial one
  const std::uint32_t bs = 128 * 1024;
  OffsetGenerator g(region, bs, true, 42);
  std::vector<int> quarter(4, 0);
  std::set<std::uint64_t> distinct;
  for (int i = 0; i < 40000; ++i) {
    const auto off = g.next();
    REQUIRE((off - region.start) % bs == 0);  // fio's blockalign=bs: never across two blocks
    REQUIRE(off >= region.start);
    REQUIRE(off + bs <= region.start + region.length);
    ++quarter[(off - region.start) * 4 / region.length];
    distinct.insert(off);
  }
  for (int q : quarter) CHECK(q == doctest::Approx(10000).epsilon(0.05));
  CHECK(distinct.size() == 512);  // every whole block, the partial one never
}

TEST_CASE("random 4 KiB offsets are 4 KiB apart from the region's start, wherever it starts") {
  OffsetGenerator g(Region{512, 1 << 20}, 4096, true, 3);
  for (int i = 0; i < 1000; ++i) {
    const auto off = g.next();
    REQUIRE((off - 512) % 4096 == 0);
    REQUIRE(off + 4096 <= 512 + (1 << 20));
  }
}

TEST_CASE("offsets are deterministic per seed") {
  const Region region{0, 1 << 30};
  OffsetGenerator a(region, 4096, true, 7), b(region, 4096, true, 7), c(region, 4096, true, 8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.next();
    CHECK(x == b.next());
    differs |= x != c.next();
  }
  CHECK(differs);
}

TEST_CASE("sequential offsets advance by bs and wrap at the region end") {
  OffsetGenerator g(Region{4096, 3 * 8192 + 100}, 8192, false, 1);
  CHECK(g.next() == 4096);
  CHECK(g.next() == 4096 + 8192);
  CHECK(g.next() == 4096 + 2 * 8192);
  CHECK(g.next() == 4096);  // the partial block at the end is skipped
}

TEST_CASE("a region of exactly one block always yields its start") {
  OffsetGenerator g(Region{8192, 4096}, 4096, true, 9);
  for (int i = 0; i < 100; ++i) CHECK(g.next() == 8192);
}
