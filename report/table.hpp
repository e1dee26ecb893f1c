#pragma once
/// Plain-text tables with aligned columns (`drives`, `ports`, `plan`), fitted to a terminal's width by
/// eliding the middle of long cells, and the display-width arithmetic they rest on.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::report {

/// Display width of a UTF-8 string in terminal columns: one per code point (no wide-character table);
/// ANSI escape sequences (ESC [ ... final byte, as report/style.hpp's colours write them) take no columns.
std::size_t display_width(std::string_view s);

/// Shorten `s` to at most `width` columns by replacing its middle with "..." (ninja's ElideMiddle), the left
/// part one column longer when the kept columns are odd: ("Intel Corporation USB 3.0 xHCI Controller", 24)
/// → "Intel Corpo...Controller". `s` fits → unchanged; `width` ≤ 3 → that many dots. UTF-8 aware: cuts only
/// between code points, never inside a multi-byte sequence. `s` must not hold escape sequences.
std::string elide_middle(std::string_view s, std::size_t width);

/// How a table may be fitted to a width.
struct TableFit {
  std::size_t width = 0;              ///< the longest line allowed; 0 = no limit (the table is unchanged)
  std::vector<std::size_t> elidable;  ///< columns whose cells may be elided (in the middle) to fit
};

/// Left-aligned columns separated by two spaces, a header row first, no trailing blanks, one '\n' per row.
/// Rows shorter than the header are padded with empty cells. With `fit.width`, the widest elidable columns
/// are narrowed one column at a time (never below their header, nor below 12 columns) until the table fits
/// or nothing more can be narrowed, and their longer cells are elided with elide_middle().
std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows, const TableFit& fit = {});

}  // namespace usbsat::report
