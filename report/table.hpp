#pragma once
/// Plain-text tables with aligned columns, for the `drives` and `ports` views.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::report {

/// Display width of a UTF-8 string in terminal columns (one per code point; no wide-character table).
std::size_t display_width(std::string_view s);

/// Left-aligned columns separated by two spaces, a header row first, no trailing blanks, one '\n' per row.
/// Rows shorter than the header are padded with empty cells.
std::string render_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

}  // namespace usbsat::report
