// src/cli/descriptor_alias and temp_name: which `-o` paths name an open descriptor, and which names beside a
// target are our own temporary files (the only ones a run may remove).
#include <doctest/doctest.h>

#include <optional>
#include <string_view>

#include "src/cli/descriptor_alias.hpp"
#include "src/cli/temp_name.hpp"

using usbsat::cli::descriptor_alias;
using usbsat::cli::is_own_temporary;

TEST_CASE("descriptor_alias: the names of an open descriptor, and nothing else") {
  struct Row {
    std::string_view path;
    std::optional<int> fd;
  };
  const Row rows[] = {
      {"/dev/stdout", 1},
      {"/dev/stderr", 2},
      {"/dev/stdin", 0},
      {"/dev/fd/1", 1},
      {"/dev/fd/0", 0},
      {"/dev/fd/17", 17},
      {"/proc/self/fd/1", 1},
      {"/proc/thread-self/fd/3", 3},
      {"/proc/4242/fd/1", 1},             // our own pid (below)
      {"/proc/4243/fd/1", std::nullopt},  // another process's descriptor: a file like any other
      {"/proc/04242/fd/1", std::nullopt},
      {"/proc/4242/fd/", std::nullopt},
      {"/proc/4242", std::nullopt},
      {"/proc/self/fd", std::nullopt},
      {"/dev/fd/", std::nullopt},
      {"/dev/fd/01", std::nullopt},
      {"/dev/fd/-1", std::nullopt},
      {"/dev/fd/+1", std::nullopt},
      {"/dev/fd/1/", std::nullopt},
      {"/dev/fd/1x", std::nullopt},
      {"/dev/fd/99999999999", std::nullopt},  // beyond int
      {"/dev/stdout2", std::nullopt},
      {"/dev/null", std::nullopt},
      {"dev/stdout", std::nullopt},
      {"/tmp/log", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.path);
    CHECK(descriptor_alias(r.path, 4242) == r.fd);
  }
}

TEST_CASE("is_own_temporary: .NAME.XXXXXX beside NAME, six letters or digits") {
  struct Row {
    std::string_view target, candidate;
    bool ours;
  };
  const Row rows[] = {
      {"usbsat.prom", ".usbsat.prom.AbC123", true},
      {"usbsat.prom", ".usbsat.prom.000000", true},
      {"usbsat.prom", ".usbsat.prom.AbC12", false},    // five
      {"usbsat.prom", ".usbsat.prom.AbC1234", false},  // seven
      {"usbsat.prom", ".usbsat.prom.AbC-12", false},   // not mkstemp's alphabet
      {"usbsat.prom", ".usbsat.prom.AbC12é", false},
      {"usbsat.prom", "usbsat.prom.AbC123", false},  // not hidden
      {"usbsat.prom", ".other.prom.AbC123", false},  // another target's
      {"usbsat.prom", ".usbsat.promXAbC123", false},
      {"usbsat.prom", ".usbsat.prom", false},
      {"usbsat.prom", "usbsat.prom", false},
      {"a", ".a.zzzzzz", true},
      {"", "..zzzzzz", false},
  };
  for (const auto& r : rows) {
    CAPTURE(r.candidate);
    CHECK(is_own_temporary(r.target, r.candidate) == r.ours);
  }
}
