// Engines against a real file (sync, uring). io_uring may be unavailable (seccomp, old kernel): those cases
// exit 77, which CTest reports as SKIP.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "load/buffer.hpp"
#include "load/engine.hpp"
#include "load/errors.hpp"
#include "load/target.hpp"
#include "load/worker.hpp"

using namespace usbsat::load;

namespace {

void skip_unless(bool ok, const char* why) {
  if (!ok) {
    std::fprintf(stderr, "SKIP: %s\n", why);
    std::_Exit(77);
  }
}

/// A 1 MiB temp file in the build directory (a real filesystem, usually O_DIRECT-capable).
struct TempFile {
  std::string path;
  std::vector<unsigned char> data;
  TempFile() {
    path = std::string(USBSAT_BINARY_DIR) + "/engine_env_test_XXXXXX";
    const int fd = ::mkstemp(path.data());
    REQUIRE(fd >= 0);
    data.resize(1 << 20);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 131) >> 9);
    REQUIRE(::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
    ::close(fd);
  }
  ~TempFile() { ::unlink(path.c_str()); }
};

void roundtrip(const char* engine_name) {
  TempFile f;
  auto t = open_target(f.path, {Access::ReadWrite, true, false});
  CHECK(t.info.size_bytes == f.data.size());
  CHECK_FALSE(t.info.is_block);
  const unsigned depth = 4;
  const std::uint32_t bs = 4096;
  auto buf = alloc_io_buffers(depth * bs, 4096, 11);
  auto engine = find_engine(engine_name)->make({t.fd.get(), depth, {buf.get(), depth * bs}, bs});

  // Read 4 blocks at distinct offsets and compare with the file.
  for (std::uint32_t s = 0; s < depth; ++s)
    REQUIRE(engine->queue({IoDir::Read, s, bs, std::uint64_t{s} * 3 * bs, buf.get() + s * bs}));
  CHECK(engine->submit() == static_cast<int>(depth));
  unsigned got = 0;
  for (int tries = 0; got < depth && tries < 100; ++tries)
    for (const auto& c : engine->reap(1, std::chrono::milliseconds(100))) {
      CHECK(c.result == static_cast<int>(bs));
      CHECK(std::memcmp(buf.get() + c.slot * bs, f.data.data() + c.slot * 3 * bs, bs) == 0);
      ++got;
    }
  CHECK(got == depth);

  // Write slot 0's buffer at offset 64k and read it back with plain pread.
  std::memset(buf.get(), 0xA5, bs);
  REQUIRE(engine->queue({IoDir::Write, 0, bs, 65536, buf.get()}));
  CHECK(engine->submit() == 1);
  auto done = engine->reap(1, std::chrono::seconds(5));
  REQUIRE(done.size() == 1);
  CHECK(done[0].result == static_cast<int>(bs));
  std::vector<unsigned char> back(bs);
  const int fd = ::open(f.path.c_str(), O_RDONLY);
  CHECK(::pread(fd, back.data(), bs, 65536) == bs);
  ::close(fd);
  CHECK(back == std::vector<unsigned char>(bs, 0xA5));

  // A read past the end of the file completes with 0 bytes, not an error and not a hang.
  REQUIRE(engine->queue({IoDir::Read, 1, bs, 4 << 20, buf.get() + bs}));
  engine->submit();
  done = engine->reap(1, std::chrono::seconds(5));
  REQUIRE(done.size() == 1);
  CHECK(done[0].result == 0);

  // And the worker loop on top of it.
  WorkerSetup s;
  s.job.pattern = Pattern::RandRead;
  s.job.block_size = bs;
  s.job.queue_depth = depth;
  s.region = {0, f.data.size()};
  const Clock clock;
  const auto now = clock.now_ns();
  const auto out =
      run_worker(*engine, {buf.get(), depth * bs}, s, {now, now, now + 100'000'000}, clock, {}, nullptr);
  CHECK(out.error == 0);
  CHECK(out.stats.ios > 10);
  CHECK(out.stats.bytes == out.stats.ios * bs);
}

}  // namespace

TEST_CASE("sync engine reads, writes and drives the worker on a real file") {
  roundtrip("sync");
}

TEST_CASE("uring engine reads, writes and drives the worker on a real file") {
  skip_unless(uring_available(), "io_uring unavailable");
  roundtrip("uring");
}

TEST_CASE("uring engine: waits with nothing completing end within their timeout, and the I/O still arrives") {
  skip_unless(uring_available(), "io_uring unavailable");
  // A read from an empty pipe completes only when something is written: until then every wait must end by
  // its timeout (the engine's tick, re-armed each time it fires), not block. alarm() turns a wait that never
  // ends into a failure instead of a hang.
  int p[2];
  REQUIRE(::pipe(p) == 0);
  char byte = 0;
  {
    auto engine = find_engine("uring")->make({p[0], 1, {}, 0});
    REQUIRE(engine->queue({IoDir::Read, 0, 1, 0, &byte}));
    REQUIRE(engine->submit() >= 0);
    ::alarm(10);
    for (int i = 0; i < 3; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto done = engine->reap(1, std::chrono::milliseconds(30));
      const auto waited = std::chrono::steady_clock::now() - t0;
      CHECK(done.empty());
      CHECK(waited < std::chrono::seconds(2));
    }
    REQUIRE(::write(p[1], "x", 1) == 1);
    std::size_t got = 0;
    for (int tries = 0; got == 0 && tries < 100; ++tries) {
      const auto done = engine->reap(1, std::chrono::milliseconds(30));
      for (const auto& c : done) {
        CHECK(c.slot == 0);
        CHECK(c.result == 1);
        ++got;
      }
    }
    ::alarm(0);
    CHECK(got == 1);
    CHECK(byte == 'x');
  }
  ::close(p[0]);
  ::close(p[1]);
}

TEST_CASE(
    "open_target on tmpfs: O_DIRECT, or buffered with a notice (tmpfs accepts O_DIRECT since Linux 6.6)") {
  skip_unless(::access("/dev/shm", W_OK) == 0, "no writable /dev/shm");
  std::string path = "/dev/shm/usbsat_target_XXXXXX";
  const int fd = ::mkstemp(path.data());
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, 1 << 20) == 0);
  ::close(fd);
  const auto t = open_target(path, {Access::ReadOnly, true, false});
  ::unlink(path.c_str());
  CHECK(t.info.direct == t.notice.empty());
  if (!t.info.direct) CHECK(t.notice.find("O_DIRECT") != std::string::npos);
  CHECK(t.info.size_bytes == 1 << 20);
}

TEST_CASE("open_target rejects missing files and character devices") {
  CHECK_THROWS_AS(open_target("/nonexistent/x", {}), TargetError);
  CHECK_THROWS_AS(open_target("/dev/null", {}), TargetError);
}
