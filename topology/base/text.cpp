#include "topology/base/text.hpp"

namespace usbsat::topology {
namespace {
constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view strip_dev_prefix(std::string_view s) {
  constexpr std::string_view kDev = "/dev/";
  if (s.starts_with(kDev)) s.remove_prefix(kDev.size());
  return s;
}

std::string_view path_basename(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string_view path_dirname(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos || slash == 0 ? std::string_view{} : path.substr(0, slash);
}

std::string format_hex4(std::uint16_t v) {
  constexpr char kDigits[] = "0123456789abcdef";
  std::string out(4, '0');
  for (int i = 3; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kDigits[v & 0xf];
  return out;
}

std::string format_vid_pid(std::uint16_t vid, std::uint16_t pid) {
  return format_hex4(vid) + ":" + format_hex4(pid);
}

}  // namespace usbsat::topology
