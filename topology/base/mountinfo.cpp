#include "topology/base/mountinfo.hpp"

#include <algorithm>
#include <charconv>

namespace usbsat::topology {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::optional<unsigned> parse_decimal(std::string_view s) {
  unsigned v = 0;
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;  // out of range
  return v;
}

}  // namespace

std::optional<DevNum> parse_devnum(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  const auto colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto major = parse_decimal(s.substr(0, colon)), minor = parse_decimal(s.substr(colon + 1));
  if (!major || !minor) return std::nullopt;
  return DevNum{*major, *minor};
}

std::string unescape_octal(std::string_view s) {
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && octal(s[i + 1]) && octal(s[i + 2]) && octal(s[i + 3])) {
      out += static_cast<char>(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::optional<MountEntry> parse_mountinfo_line(std::string_view line) {
  // id parent major:minor root mountpoint options [optional…] - fstype source superoptions
  std::vector<std::string_view> f;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && is_space(line[i])) ++i;
    const auto start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) f.push_back(line.substr(start, i - start));
  }
  const auto sep = std::find(f.begin(), f.end(), std::string_view("-"));
  if (sep == f.end() || sep - f.begin() < 6 || f.end() - sep < 3) return std::nullopt;
  const auto dev = parse_devnum(f[2]);
  if (!dev) return std::nullopt;
  return MountEntry{*dev, unescape_octal(f[4]), std::string(sep[1]), unescape_octal(sep[2])};
}

std::vector<MountEntry> parse_mountinfo(std::string_view text) {
  std::vector<MountEntry> out;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (auto m = parse_mountinfo_line(line)) out.push_back(std::move(*m));
  }
  return out;
}

std::optional<std::size_t> first_malformed_mountinfo_line(std::string_view text) {
  for (std::size_t number = 1; !text.empty(); ++number) {
    const auto eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos && !parse_mountinfo_line(line))
      return number;
  }
  return std::nullopt;
}

}  // namespace usbsat::topology
