#pragma once
/// The check of a whole-number count option (`top --count`, `watch --count`): a number CLI11's Range would
/// take for a float ("1e3") or refuse with "not in range" although it is in range is said to be no whole
/// number.
#include <string>

#include <CLI/CLI.hpp>

namespace usbsat::cli {

/// The message for `text` as a count from `lo` to `hi`: "" when it is one, "Value 1e3 is not a whole number:
/// give 1 to 1000000", "Value 0 not in range 1 to 1000000" (pure).
std::string count_error(const std::string& text, unsigned lo, unsigned hi);

/// count_error as a CLI11 validator.
CLI::Validator whole_count(unsigned lo, unsigned hi);

}  // namespace usbsat::cli
