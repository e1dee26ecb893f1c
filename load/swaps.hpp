#pragma once
/// /proc/swaps: the devices and files the kernel swaps on. Writing to one (or to a stack it belongs to)
/// destroys the swapped-out memory of running programs.
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::load {

/// The Filename column of /proc/swaps ("Filename Type Size Used Priority" header, then one line per swap
/// area), octal escapes decoded ("/swap\040file" -> "/swap file"). Blank or header lines are skipped.
std::vector<std::string> parse_swaps(std::string_view text);

}  // namespace usbsat::load
