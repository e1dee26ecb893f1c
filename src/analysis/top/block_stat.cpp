#include "src/analysis/top/block_stat.hpp"

#include <charconv>
#include <vector>

namespace usbsat::analysis::top {

std::optional<BlockIo> parse_block_stat(std::string_view text) {
  std::vector<std::uint64_t> fields;
  std::size_t i = 0;
  while (fields.size() < 7) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    if (i == text.size()) return std::nullopt;
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (ec != std::errc() || (p != text.data() + text.size() && *p != ' ' && *p != '\t' && *p != '\n'))
      return std::nullopt;
    fields.push_back(v);
    i = static_cast<std::size_t>(p - text.data());
  }
  constexpr std::uint64_t kSector = 512;
  return BlockIo{fields[2] * kSector, fields[6] * kSector};
}

}  // namespace usbsat::analysis::top
