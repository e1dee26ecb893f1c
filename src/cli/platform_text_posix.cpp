#include "src/cli/platform_text.hpp"

#include <unistd.h>

namespace usbsat::cli {

std::string_view no_usb_where() {
  return "under /sys (no /sys/bus/usb: this machine has no USB, or it is hidden, e.g. in a container or VM)";
}

std::string sample_recordings_dir() { return USBSAT_RECORDINGS_DIR; }

std::optional<std::string> host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return std::nullopt;
  return std::string(buf);
}

}  // namespace usbsat::cli
