// UdevSource's reads on real files (no umockdev): an attribute that is a FIFO, /dev/zero linked in place of
// an attribute, an oversized file, a directory the user may not enter. None may hang or exhaust memory;
// each is refused with a problem naming it.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "topology/model/errors.hpp"
#include "topology/scan/udev_source.hpp"

using namespace usbsat::topology;
namespace fs = std::filesystem;

namespace {
/// A scratch directory with one file of each kind, removed afterwards.
struct Scratch {
  fs::path dir;
  Scratch() {
    char tmpl[] = "/tmp/usbsat-udev-source-XXXXXX";
    dir = ::mkdtemp(tmpl);
    std::ofstream(dir / "speed") << "5000\n";
    ::mkfifo((dir / "fifo").c_str(), 0644);
    fs::create_symlink("/dev/zero", dir / "descriptors");
    fs::create_symlink("/dev/zero", dir / "product");
    std::ofstream(dir / "big") << std::string(UdevSource::kMaxTextAttribute + 1, 'x');
    std::ofstream(dir / "mountinfo") << "40 22 8:17 / /mnt rw - ext4 /dev/sdb1 rw\n";
  }
  ~Scratch() { fs::remove_all(dir); }
};

bool names(const std::vector<Diagnostic>& problems, std::string_view what) {
  for (const auto& p : problems)
    if (p.message.find(what) != std::string::npos) return true;
  return false;
}

std::optional<UdevSource> make_source() {
  try {
    return std::optional<UdevSource>(std::in_place);
  } catch (const ScanError& e) {
    MESSAGE("no readable /sys here: " << e.what());
    return std::nullopt;
  }
}
}  // namespace

TEST_CASE("UdevSource refuses non-regular and oversized attributes with a problem, and never blocks") {
  auto src = make_source();
  if (!src) return;
  ::alarm(30);  // before the fix a FIFO blocked open() forever and /dev/zero read until memory ran out
  Scratch s;
  const std::string d = s.dir.string();
  CHECK(src->attribute(d, "speed") == "5000");
  CHECK(src->take_read_problems().empty());
  CHECK(src->attribute(d, "absent") == std::nullopt);
  CHECK(src->take_read_problems().empty());  // absent is not a problem

  struct Row {
    const char* name;
    bool binary;
    std::string_view says;
  };
  for (const auto& row :
       {Row{"fifo", false, "FIFO"}, Row{"product", false, "character device"},
        Row{"descriptors", true, "character device"}, Row{"big", false, "larger than 65536"}}) {
    CAPTURE(row.name);
    const auto v = row.binary ? src->binary_attribute(d, row.name) : src->attribute(d, row.name);
    CHECK_FALSE(v);
    const auto problems = src->take_read_problems();
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].where == d);
    CHECK(problems[0].message.find(std::string("'") + row.name + "'") != std::string::npos);
    CHECK(names(problems, row.says));
  }

  CHECK(src->read_text_file(d + "/mountinfo"));
  CHECK_FALSE(src->read_text_file("/dev/zero"));
  CHECK(names(src->take_read_problems(), "character device"));
  CHECK_FALSE(src->read_text_file(d + "/fifo"));
  CHECK(names(src->take_read_problems(), "FIFO"));
  CHECK_FALSE(src->read_text_file("/nonexistent"));
  CHECK(names(src->take_read_problems(), "No such file"));
  ::alarm(0);
}

TEST_CASE("UdevSource says what a non-root user could not read") {
  auto src = make_source();
  if (!src) return;
  Scratch s;
  ::chmod(s.dir.c_str(), 0755);
  const fs::path locked = s.dir / "1-2";
  fs::create_directory(locked);
  std::ofstream(locked / "speed") << "480\n";
  ::chmod(locked.c_str(), 0700);
  // As root every directory is readable: check as `nobody` in a child process.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::geteuid() != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    const bool listed_nothing = src->list(locked.string(), "").empty();
    const bool read_nothing = !src->attribute(locked.string(), "speed");
    const auto problems = src->take_read_problems();
    const bool reported = problems.size() == 2 && names(problems, "Permission denied") &&
                          names(problems, "could not be listed") && names(problems, "'speed'");
    ::_exit(listed_nothing && read_nothing && reported ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 2) {
    MESSAGE("cannot drop privileges here; not checked");
    return;
  }
  CHECK(WEXITSTATUS(status) == 0);
}
