// The subcommand table, built from commands.def.
#include "src/cli/command.hpp"

namespace usbsat::cli {

#define USBSAT_COMMAND(name, summary) Runner configure_##name(CLI::App& sub);
#include "src/cli/commands.def"
#undef USBSAT_COMMAND

namespace {
constexpr CommandSpec kCommands[] = {
#define USBSAT_COMMAND(name, summary) {#name, summary, &configure_##name},
#include "src/cli/commands.def"
#undef USBSAT_COMMAND
};
}  // namespace

std::span<const CommandSpec> commands() {
  return kCommands;
}

}  // namespace usbsat::cli
