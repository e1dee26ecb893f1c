#pragma once
/// Entry points of the subcommands; each lives in its own cmd_*.cpp and returns an exit code.
#include "src/options.hpp"

namespace CLI {
class App;
}

namespace usbsat::cli {

int run_version(const Invocation& inv);
int run_load(const Invocation& inv);
void configure_load(CLI::App& sub, Invocation& inv);
int run_saturate(const Invocation& inv);
void configure_saturate(CLI::App& sub, Invocation& inv);

}  // namespace usbsat::cli
