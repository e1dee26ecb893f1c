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
int run_doctor(const Invocation& inv);
/// `usbsat topo`: the whole topology tree (cmd_topo.cpp).
int run_topo(const Invocation& inv);
/// `usbsat drives`: one entry per whole disk (cmd_drives.cpp).
int run_drives(const Invocation& inv);
/// `usbsat ports`: connectors grouped by controller (cmd_ports.cpp).
int run_ports(const Invocation& inv);
int run_saturate(const Invocation& inv);
void configure_saturate(CLI::App& sub, Invocation& inv);
/// `usbsat plan`: where to plug drives; `--predict`: shares of the current placement (cmd_plan.cpp).
int run_plan(const Invocation& inv);
void configure_plan(CLI::App& sub, Invocation& inv);

}  // namespace usbsat::cli
