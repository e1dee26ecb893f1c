#include "src/cli/descriptor_alias.hpp"

#include <charconv>
#include <string>

namespace usbsat::cli {
namespace {

/// A canonical decimal number (no sign, no leading zero but "0" itself) that fits `int`.
std::optional<long> canonical_number(std::string_view s) {
  if (s.empty() || (s.size() > 1 && s.front() == '0')) return std::nullopt;
  long n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || n < 0 || n > 0x7fffffff) return std::nullopt;
  return n;
}

/// `rest` after "PREFIX": the descriptor number, if `rest` is exactly one.
std::optional<int> after(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return std::nullopt;
  if (const auto n = canonical_number(path.substr(prefix.size()))) return static_cast<int>(*n);
  return std::nullopt;
}

}  // namespace

std::optional<int> descriptor_alias(std::string_view path, long pid) {
  if (path == "/dev/stdin") return 0;
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"})
    if (const auto fd = after(path, prefix)) return fd;
  if (!path.starts_with("/proc/")) return std::nullopt;
  const auto slash = path.find('/', 6);
  if (slash == std::string_view::npos) return std::nullopt;
  const auto owner = canonical_number(path.substr(6, slash - 6));
  if (!owner || *owner != pid) return std::nullopt;
  return after(path.substr(slash), "/fd/");
}

}  // namespace usbsat::cli
