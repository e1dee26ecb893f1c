#include <doctest/doctest.h>

#include <cstring>
#include <stop_token>
#include <vector>

#include "load/buffer.hpp"

using namespace usbsat::load;

TEST_CASE("check_buffer_memory: bs x qd x targets at once against the limit") {
  CHECK(buffer_memory(128 << 10, 32, 4) == 16u << 20);
  CHECK_FALSE(check_buffer_memory(128 << 10, 32, 4, kDefaultMaxBufferMemory));
  CHECK_FALSE(check_buffer_memory(64 << 20, 4, 1, kDefaultMaxBufferMemory));  // exactly 256m
  const auto e = check_buffer_memory(64 << 20, 1024, 1, kDefaultMaxBufferMemory);
  REQUIRE(e);
  CHECK(
      *e ==
      "the I/O buffers would take 64g (bs 64m × qd 1024 × 1 target at once), more than the 256m limit; lower "
      "--bs or --qd (or run fewer targets at once), or raise --max-buffer-memory");
  CHECK(check_buffer_memory(16 << 20, 128, 2, kDefaultMaxBufferMemory)
            ->find("4g (bs 16m × qd 128 × 2 targets") != std::string::npos);
  CHECK_FALSE(check_buffer_memory(16 << 20, 128, 2, std::uint64_t{4} << 30));
}

TEST_CASE("parse_buffer_limit: a size from 1m up to the machine's memory") {
  const std::uint64_t phys = std::uint64_t{8} << 30;
  CHECK(parse_buffer_limit("256m", phys).bytes == 256u << 20);
  CHECK(parse_buffer_limit("8g", phys).error.empty());
  CHECK(parse_buffer_limit("9g", phys).error ==
        "--max-buffer-memory 9g is more than this machine's memory (8192m)");
  CHECK(parse_buffer_limit("9g", 0).error.empty());  // memory unknown: no upper bound
  for (const char* bad : {"", "0", "512k", "lots", "-1m"}) {
    CAPTURE(bad);
    CHECK(parse_buffer_limit(bad, phys).error.find("bad --max-buffer-memory") == 0);
  }
}

TEST_CASE("alloc_io_buffers: filled without zero bytes, and a stop request ends the fill") {
  auto b = alloc_io_buffers(1 << 20, 4096, 7);
  REQUIRE(b);
  bool zero = false;
  for (std::size_t i = 0; i < (1u << 20); ++i) zero |= b[i] == std::byte{0};
  CHECK_FALSE(zero);

  // Counted in bytes, not timed: a stop requested before the fill fills nothing, and alloc_io_buffers gives
  // up; without a stop every byte is filled, the same pattern for the same seed.
  std::vector<std::byte> big(3 * kFillChunk + 8);
  std::stop_source stop;
  stop.request_stop();
  CHECK(fill_io_pattern(big, 7, stop.get_token()) == 0);
  CHECK(big.front() == std::byte{0});
  CHECK_FALSE(alloc_io_buffers(2 * kFillChunk, 4096, 7, stop.get_token()));
  CHECK(fill_io_pattern(big, 7) == big.size());
  CHECK(big.back() != std::byte{0});
  CHECK(std::memcmp(big.data(), b.get(), 1 << 20) == 0);
}
