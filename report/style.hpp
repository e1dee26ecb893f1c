#pragma once
/// How text output may be decorated on a terminal: colour and a width to fit. src/cli/terminal decides it
/// from the terminal and the flags and puts it into a renderer's input; renderers never look at the terminal
/// (G13/G14). The default — no colour, no width limit — is what the golden files hold and what a pipe gets.
#include <cstddef>
#include <string>
#include <string_view>

namespace usbsat::report {

struct TextStyle {
  bool color = false;     ///< wrap emphasised words in ANSI SGR colour sequences
  std::size_t width = 0;  ///< columns available for a line; 0 = no limit (not a terminal, or unknown)
};

/// The colours usbsat uses, one per meaning (doctor severities, saturate verdicts, UAS/BOT).
enum class Color {
  Problem,  ///< bold red: doctor PROBLEM
  Warning,  ///< yellow: doctor WARNING, BOT, a saturated or unexplained verdict
  Info,     ///< cyan: doctor INFO
  Good,     ///< green: UAS, no contention
};

/// `text` wrapped in the colour's SGR sequence and a reset when `style.color`, else `text` unchanged.
std::string paint(std::string_view text, Color c, const TextStyle& style);

}  // namespace usbsat::report
