#pragma once
/// What every usbsat fuzz target shares: the input as text, and a check that turns a broken promise of a
/// parser into a crash libFuzzer reports (an assert would vanish under NDEBUG).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace usbsat::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Abort with `what` when `ok` is false: a parser returned something its header says it never returns.
inline void expect(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz: broken promise: %s\n", what);
  std::abort();
}

}  // namespace usbsat::fuzz
