#pragma once
/// `usbsat history`: list what the store remembers, or forget a drive (or everything) (cmd_history.cpp).
#include <string>
#include <vector>

#include "src/cli/command.hpp"

namespace usbsat::cli {

struct HistoryOptions {
  std::vector<std::string> words;  ///< [list] | forget DEV|KEY|all
};

void bind_history_options(CLI::App& sub, HistoryOptions& o);

}  // namespace usbsat::cli
