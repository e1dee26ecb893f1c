#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "load/errors.hpp"
#include "load/target.hpp"

using namespace usbsat::load;

TEST_CASE("find_named_twice: the same file under two names, the same string, or distinct targets") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("usbsat-twice-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "a") << "a";
  std::ofstream(dir / "b") << "b";
  fs::create_symlink(dir / "a", dir / "link");
  const std::string a = (dir / "a").string(), b = (dir / "b").string(), link = (dir / "link").string();
  CHECK_FALSE(find_named_twice(std::vector<std::string>{a, b}));
  CHECK(find_named_twice(std::vector<std::string>{a, b, a}) == std::pair<std::size_t, std::size_t>{0, 2});
  CHECK(find_named_twice(std::vector<std::string>{b, link, a}) == std::pair<std::size_t, std::size_t>{1, 2});
  CHECK(find_named_twice(std::vector<std::string>{"/nonexistent/x", "/nonexistent/x"}));
  CHECK_FALSE(find_named_twice(std::vector<std::string>{"/nonexistent/x", "/nonexistent/y"}));
  fs::remove_all(dir);
}

TEST_CASE("open_target refuses a FIFO without blocking on it") {
  namespace fs = std::filesystem;
  const fs::path fifo = fs::temp_directory_path() / ("usbsat-fifo-" + std::to_string(::getpid()));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(open_target(fifo.string(), {}),
                       doctest::Contains("not a block device or regular file"), TargetError);
  fs::remove(fifo);
}
