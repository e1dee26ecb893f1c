#pragma once
/// `usbsat completion bash|zsh`: a bash or zsh completion script generated from the command registry, so it
/// can never disagree with the options the commands really bind.
#include <string>

namespace usbsat::cli {

/// The script: `complete -F _usbsat usbsat` with every command and, per command, its options. Pure.
std::string bash_completion();
/// The zsh script (`#compdef usbsat`, for a directory on $fpath as `_usbsat`): the commands with their
/// summaries, per command its options, the global flags, files otherwise. Pure.
std::string zsh_completion();

}  // namespace usbsat::cli
