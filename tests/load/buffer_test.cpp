#include <doctest/doctest.h>

#include "load/buffer.hpp"
#include "load/cpu_time.hpp"

using namespace usbsat::load;

// gcc defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang (the sanitize preset) says so by
// __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define USBSAT_CLANG_SANITIZER 1
#endif
#endif
#ifndef USBSAT_CLANG_SANITIZER
#define USBSAT_CLANG_SANITIZER 0
#endif

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

  // Timed in this thread's CPU time, not the wall clock: on a busy machine a preempted thread looks slow
  // (CI measured 36 s of wall time next to a compile); filling 1 GiB costs about a second of CPU either way.
  std::stop_source stop;
  stop.request_stop();
  const CpuTime t0 = thread_cpu();
  CHECK_FALSE(alloc_io_buffers(std::size_t{1} << 30, 4096, 7, stop.get_token()));  // 1 GiB: not filled
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || USBSAT_CLANG_SANITIZER
  constexpr double kQuick = 1.0;  // seconds: the sanitizer maps shadow memory for the 1 GiB
#else
  constexpr double kQuick = 0.1;
#endif
  const CpuTime t1 = thread_cpu();
  CHECK(t1.user_s - t0.user_s + t1.sys_s - t0.sys_s < kQuick);
}
