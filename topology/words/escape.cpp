#include "topology/words/escape.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid (overlongs, surrogates and
/// code points above U+10FFFF are invalid).
std::size_t utf8_len(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c < 0x80) return 1;
  if ((c & 0xe0) == 0xc0) {
    n = 2;
    cp = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3;
    cp = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4;
    cp = c & 0x07;
  } else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3f);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

/// The code point of the valid `n`-byte UTF-8 sequence at s[i] (n from utf8_len, 2..4).
std::uint32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  static constexpr unsigned char kLeadMask[] = {0, 0, 0x1f, 0x0f, 0x07};
  std::uint32_t cp = static_cast<unsigned char>(s[i]) & kLeadMask[n];
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  return cp;
}

/// Bidirectional formatting characters: they reorder what follows them on the screen (U+202E makes
/// "gpj.exe" read "exe.jpg"), so a device string must not carry them to the reader.
bool is_bidi_control(std::uint32_t cp) {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
         cp == 0x061c;
}

}  // namespace

bool is_printable_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x7f;
  });
}

bool is_trimmed_printable_ascii(std::string_view s) {
  return trim(s).size() == s.size() && is_printable_ascii(s);
}

namespace {

/// The one escaping rule; `keep_layout` keeps '\n' and '\t' (block output), else every control is escaped.
std::string escape_controls(std::string_view s, bool keep_layout) {
  // Nearly every string (sysfs paths, attribute values) is printable ASCII: nothing to escape, one copy.
  if (is_printable_ascii(s)) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = utf8_len(s, i);
    const bool layout = keep_layout && (c == '\n' || c == '\t');
    // U+0080..U+009F (C1 controls, "\xc2\x9b" is CSI) act like ESC sequences on some terminals.
    const bool c1 = n == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0;
    if (c1) n = 0;  // escaped byte by byte below
    if (n > 1 && is_bidi_control(code_point(s, i, n))) {
      out += fmt::format("\\u{:04x}", code_point(s, i, n));
      i += n;
    } else if (n == 0 || ((c < 0x20 || c == 0x7f) && !layout)) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

std::string escape_unprintable(std::string_view s) {
  return escape_controls(s, false);
}

std::string terminal_safe(std::string_view s) {
  return escape_controls(s, true);
}

std::string trim_and_escape(std::string_view s) {
  return escape_unprintable(trim(s));
}

std::string trim_and_escape_move(std::string&& s) {
  if (is_trimmed_printable_ascii(s)) return std::move(s);
  return trim_and_escape(std::string_view(s));
}

std::string display_string(std::string_view s) {
  const std::string safe = escape_unprintable(s);
  std::string out;
  bool blank = false;
  for (char c : safe) {
    if (c == ' ') {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace usbsat::topology
