// The history store's file (src/cli/history_file.hpp): where it is, what is refused, and that writers at
// once lose nothing.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "src/cli/history_file.hpp"
#include "topology/history/store_json.hpp"

using namespace usbsat;

namespace {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "usbsat-history-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

history::DriveRecord drive(int i) {
  history::DriveRecord d;
  d.vid_pid = "1234:5678";
  d.serial = "h:" + std::string(12, static_cast<char>('0' + i % 10));
  d.size_bytes = 1000 + static_cast<std::uint64_t>(i);
  d.key = history::drive_key(d.vid_pid, d.serial, d.size_bytes);
  return d;
}

history::Measurement meas(int i) {
  history::Measurement m;
  m.date = "2026-12-06T10:00:00Z";
  m.command = "load";
  m.pattern = "read";
  m.mbs = 100 + i;
  return m;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("history file: where it is") {
  cli::GlobalOptions g;
  g.history = "off";
  CHECK_FALSE(cli::history_location(g).path);
  CHECK(cli::history_location(g).why == "--history off");
  g.history = "/x/h.json";
  CHECK(cli::history_location(g).path == "/x/h.json");
}

TEST_CASE("history file: sixteen writers at once lose no measurement") {
  TempDir dir;
  const std::string path = (dir.path / "sub" / "history.json").string();
  constexpr int kWriters = 16;
  std::vector<pid_t> kids;
  for (int i = 0; i < kWriters; ++i) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const auto e = cli::update_history_file(
          path, [&](history::Store& s) { history::add_measurement(s, drive(i), meas(i)); });
      std::_Exit(e ? 1 : 0);
    }
    kids.push_back(pid);
  }
  for (const auto pid : kids) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  const auto read = cli::read_history_file(path);
  REQUIRE_FALSE(read.problem);
  CHECK(read.store.drives.size() == kWriters);
}

TEST_CASE("history file: a store that cannot be read is reported and never overwritten") {
  TempDir dir;
  const auto path = (dir.path / "history.json").string();
  CHECK_FALSE(cli::read_history_file(path).exists);  // missing: an empty store, no problem
  CHECK_FALSE(cli::read_history_file(path).problem);
  const std::vector<std::string> bads{"{\"format\": \"usbsat-history\", \"version\": 7, \"drives\": []}",
                                      "{trunc", "\x1b[2J"};
  for (const auto& bad : bads) {
    std::ofstream(path) << bad;
    const auto read = cli::read_history_file(path);
    CHECK(read.problem);
    const auto e = cli::update_history_file(path, [](history::Store& s) { s.drives.push_back(drive(1)); });
    REQUIRE(e);
    CHECK(e->find("left as it is") != std::string::npos);
    CHECK(slurp(path) == bad);
  }
  CHECK_FALSE(cli::replace_history_file(path, {}));  // `history forget all` starts anew
  CHECK_FALSE(cli::read_history_file(path).problem);
}
