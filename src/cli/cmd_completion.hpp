#pragma once
/// `usbsat completion bash`: a bash completion script generated from the command registry, so it can never
/// disagree with the options the commands really bind.
#include <string>

namespace usbsat::cli {

/// The script: `complete -F _usbsat usbsat` with every command and, per command, its options. Pure.
std::string bash_completion();

}  // namespace usbsat::cli
