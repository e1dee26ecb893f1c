#include "src/cli/platform_text.hpp"

namespace usbsat::cli {

std::string_view no_usb_where() {
  return "under /sys (no /sys/bus/usb: this machine has no USB, or it is hidden, e.g. in a container or VM)";
}

std::string sample_recordings_dir() { return USBSAT_RECORDINGS_DIR; }

}  // namespace usbsat::cli
