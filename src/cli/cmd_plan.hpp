#pragma once
/// `usbsat plan`: its options and how they bind to the command line (cmd_plan.cpp).
#include <optional>
#include <string>
#include <vector>

#include "src/cli/command.hpp"

namespace usbsat::cli {

/// `usbsat plan`: where to plug drives (or `--predict`: the shares of the current placement).
struct PlanOptions {
  bool predict = false;              ///< --predict: shares of the drives as they are plugged in now
  unsigned drives = 0;               ///< --drives N: N drives not connected yet
  std::vector<std::string> demand;   ///< --demand 400M (every drive) or sdb=170M (one drive), repeatable
  std::string prefer = "speed";      ///< --prefer speed|uas|few-moves
  std::string pattern = "read";      ///< --pattern read|write: the direction the model predicts
  std::vector<std::string> devices;  ///< connected drives to re-place (or to predict)
};

/// Add the options of `usbsat plan` to `sub`, bound to `o`.
void bind_plan_options(CLI::App& sub, PlanOptions& o);

}  // namespace usbsat::cli
