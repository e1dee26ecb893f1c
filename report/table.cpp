#include "report/table.hpp"

#include <algorithm>
#include <numeric>

namespace usbsat::report {
namespace {

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xc0) == 0x80;
}

/// Byte offset where each code point of `s` starts, plus s.size() at the end.
std::vector<std::size_t> code_point_starts(std::string_view s) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!is_continuation(s[i])) starts.push_back(i);
  starts.push_back(s.size());
  return starts;
}

/// A column is never narrowed below this, so an elided cell still says what it is.
constexpr std::size_t kMinElidedWidth = 12;

}  // namespace

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      // CSI: parameters and intermediates up to a final byte in 0x40..0x7e.
      i += 2;
      while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
      continue;
    }
    if (!is_continuation(s[i])) ++w;
  }
  return w;
}

std::string elide_middle(std::string_view s, std::size_t width) {
  constexpr std::string_view kDots = "...";
  const auto starts = code_point_starts(s);
  const std::size_t points = starts.size() - 1;
  if (points <= width) return std::string(s);
  if (width <= kDots.size()) return std::string(kDots.substr(0, width));
  const std::size_t keep = width - kDots.size();
  const std::size_t left = keep - keep / 2, right = keep / 2;
  std::string out(s.substr(0, starts[left]));
  out += kDots;
  out += s.substr(starts[points - right]);
  return out;
}

std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows, const TableFit& fit) {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], display_width(row[i]));
  };
  measure(header);
  for (const auto& r : rows) measure(r);

  // Fit: narrow the widest elidable column by one until the line fits (water-filling, so long columns
  // give up columns before short ones do).
  std::vector<bool> elided(width.size(), false);
  if (fit.width > 0 && !width.empty()) {
    const std::size_t gaps = 2 * (width.size() - 1);
    std::size_t total = std::accumulate(width.begin(), width.end(), gaps);
    while (total > fit.width) {
      std::size_t best = width.size();
      for (std::size_t c : fit.elidable) {
        if (c >= width.size()) continue;
        const std::size_t floor = std::max(display_width(header[c]), kMinElidedWidth);
        if (width[c] > floor && (best == width.size() || width[c] > width[best])) best = c;
      }
      if (best == width.size()) break;
      --width[best];
      --total;
      elided[best] = true;
    }
  }

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < width.size(); ++i) {
      std::string cell = i < row.size() ? row[i] : std::string();
      if (elided[i]) cell = elide_middle(cell, width[i]);
      line += cell;
      if (i + 1 < width.size()) line.append(width[i] - display_width(cell) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  emit(header);
  for (const auto& r : rows) emit(r);
  return out;
}

}  // namespace usbsat::report
