// The one load session of `load`, `saturate` and `top` (src/cli/load_session.hpp): one set of job messages,
// the depth an engine really keeps, and how targets are named.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/cli/load_session.hpp"

using namespace usbsat::cli;

TEST_CASE("parse_job: one message per bad option, and a good job validated with its buffer limit") {
  struct Row {
    JobOptions o;
    const char* error;  ///< "" when the job is good
  };
  auto with = [](auto set) {
    JobOptions o;
    set(o);
    return o;
  };
  const Row rows[] = {
      {JobOptions{}, ""},
      {with([](JobOptions& o) { o.pattern = "sideways"; }), "unknown pattern 'sideways'"},
      {with([](JobOptions& o) { o.bs = "1q"; }), "bad block size '1q': give 512 to 64m, e.g. 4k or 128k"},
      {with([](JobOptions& o) { o.bs = "0"; }), "bad block size '0': give 512 to 64m"},
      {with([](JobOptions& o) { o.bs = "3"; }), "block size must be a positive multiple of 512 bytes"},
      {with([](JobOptions& o) { o.offset = "x"; }), "bad offset 'x'"},
      {with([](JobOptions& o) { o.size = "x"; }), "bad size 'x'"},
      {with([](JobOptions& o) { o.runtime_s = 1e12; }), "--runtime 1e+12 is out of range"},
      {with([](JobOptions& o) { o.qd = 0; }), "queue depth must be between 1 and 1024"},
      {with([](JobOptions& o) { o.max_buffer_memory = "lots"; }), "--max-buffer-memory"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.error);
    const auto p = parse_job(r.o);
    if (*r.error == '\0') {
      CHECK(p.error.empty());
      CHECK(p.job.block_size == 128 * 1024);
      CHECK(p.job.queue_depth == r.o.qd);
      CHECK(p.buffer_limit == 256u << 20);
    } else {
      CHECK(p.error.find(r.error) != std::string::npos);
    }
  }
}

TEST_CASE("effective_queue_depth: a synchronous engine keeps one I/O in flight, and says so") {
  const usbsat::load::EngineChoice sync{"sync", "", true}, null{"null", "", false};
  CHECK(effective_queue_depth(sync, 32) == 1);
  CHECK(effective_queue_depth(sync, 1) == 1);
  CHECK(effective_queue_depth(null, 32) == 32);
  CHECK(lowered_depth_note(sync, 32) ==
        "the sync engine keeps one I/O in flight per target: queue depth 1, not 32");
}

TEST_CASE("named_twice_error: the same target under two spellings") {
  const auto dir = std::filesystem::temp_directory_path() / ("usbsat-session-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto f = (dir / "f").string();
  std::ofstream(f) << "x";
  CHECK_FALSE(named_twice_error(std::vector<std::string>{f, (dir / "g").string()}, "target"));
  CHECK(named_twice_error(std::vector<std::string>{f, f}, "target") == f + " is named twice");
  const auto alias = (dir / "." / "f").string();
  CHECK(named_twice_error(std::vector<std::string>{f, alias}, "drive") ==
        f + " and " + alias + " are the same drive (named twice)");
  std::filesystem::remove_all(dir);
}

TEST_CASE("check_block_devices: existing block devices, each once, resolved") {
  CHECK(check_block_devices(std::vector<std::string>{"/dev/usbsat-missing"}).error ==
        "'/dev/usbsat-missing' does not exist: give a block device such as /dev/sdb");
  CHECK(check_block_devices(std::vector<std::string>{"/dev/null"}).error ==
        "'/dev/null' is not a block device: give one such as /dev/sdb");
  // A block device of this machine, if there is one, under two spellings.
  std::string dev;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/block")) {
    const auto p = "/dev/" + e.path().filename().string();
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      dev = p;
      break;
    }
  }
  if (dev.empty()) return;  // no block device node here (a container): the refusals above still ran
  const auto one = check_block_devices(std::vector<std::string>{dev});
  CHECK(one.error.empty());
  CHECK(one.paths == std::vector<std::string>{dev});
  const std::string alias = "/dev/./" + dev.substr(5);
  CHECK(check_block_devices(std::vector<std::string>{dev, alias}).error ==
        dev + " and " + alias + " are the same device (named twice)");
}
