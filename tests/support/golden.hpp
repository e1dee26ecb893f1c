#pragma once
/// Golden-file comparison: CHECK that `actual` equals tests/fixtures/golden/<name>. With UPDATE_GOLDEN=1 in
/// the environment the file is (re)written instead and the check passes; without it a missing file fails.
/// Under CI (CI set and not empty/0/false) UPDATE_GOLDEN=1 is refused: it would make every golden check pass.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

namespace usbsat::testing {

inline std::string golden_path(const std::string& name) {
  return std::string(USBSAT_SOURCE_DIR) + "/tests/fixtures/golden/" + name;
}

/// True when the CI environment variable says we run in CI (the same rule as the top CMakeLists.txt).
inline bool running_in_ci() {
  const char* ci = std::getenv("CI");
  if (!ci) return false;
  std::string v(ci);
  std::transform(v.begin(), v.end(), v.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return !v.empty() && v != "0" && v != "false";
}

inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update && std::string(update) == "1" && running_in_ci()) {
    FAIL_CHECK("UPDATE_GOLDEN=1 is refused under CI (CI=" << std::string(std::getenv("CI"))
                                                          << "): it would rewrite " << path
                                                          << " and pass; compare instead");
    update = nullptr;  // and compare, so the real state of the golden is reported too
  }
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    MESSAGE("updated golden file " << path);
    return;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    FAIL("golden file " << path << " is missing; run with UPDATE_GOLDEN=1 to create it");
    return;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string expected = ss.str();
  if (expected != actual) {
    // Point at the first differing line to keep failures readable.
    std::size_t line = 1, i = 0;
    while (i < expected.size() && i < actual.size() && expected[i] == actual[i])
      line += expected[i++] == '\n';
    auto line_at = [&](const std::string& s) {
      auto b = s.rfind('\n', i == 0 ? 0 : i - 1);
      b = (b == std::string::npos || i == 0) ? 0 : b + 1;
      return s.substr(b, s.find('\n', b) - b);
    };
    FAIL_CHECK("golden mismatch in " << path << " at line " << line << "\n  expected: " << line_at(expected)
                                     << "\n  actual:   " << line_at(actual)
                                     << "\n(rerun with UPDATE_GOLDEN=1 after checking the change)");
  }
}

}  // namespace usbsat::testing
