#pragma once
/// One string table per enum, read both ways (systemd's DEFINE_STRING_TABLE_LOOKUP): the enum's JSON words
/// live in one constexpr array, to_string and parse are two lookups of it. Every enum's words are such a
/// table (JSON tokens in the enum's own .cpp, human words in topology/words/describe.cpp) rather than a
/// switch.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace usbsat::topology {

template <class E, std::size_t N>
struct StringTable {
  std::array<std::pair<E, std::string_view>, N> rows;

  /// The word of `e`; `fallback` for a value the table lacks (an enum read from memory it does not hold).
  constexpr std::string_view name(E e, std::string_view fallback) const {
    for (const auto& [value, word] : rows)
      if (value == e) return word;
    return fallback;
  }
  /// The value whose word is exactly `s`; nullopt for anything else.
  constexpr std::optional<E> parse(std::string_view s) const {
    for (const auto& [value, word] : rows)
      if (word == s) return value;
    return std::nullopt;
  }
};

}  // namespace usbsat::topology
