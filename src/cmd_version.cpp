#include <fmt/format.h>

#include "src/commands.hpp"
#include "src/exit_codes.hpp"

namespace usbsat::cli {

int run_version(const Invocation& inv) {
  if (inv.global.json)
    fmt::print("{{\"name\":\"usbsat\",\"version\":\"0.1.0\"}}\n");
  else
    fmt::print("usbsat 0.1.0\n");
  return kExitOk;
}

}  // namespace usbsat::cli
