#include "src/cli/count_option.hpp"

#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace usbsat::cli {

std::string count_error(const std::string& text, unsigned lo, unsigned hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || end != text.data() + text.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    return fmt::format("Value {} is not a whole number: give {} to {}", text, lo, hi);
  if (ec == std::errc::result_out_of_range || v < lo || v > hi)
    return fmt::format("Value {} not in range {} to {}", text, lo, hi);
  return "";
}

CLI::Validator whole_count(unsigned lo, unsigned hi) {
  return CLI::Validator([lo, hi](std::string& text) { return count_error(text, lo, hi); },
                        fmt::format("UINT in [{} - {}]", lo, hi));
}

}  // namespace usbsat::cli
