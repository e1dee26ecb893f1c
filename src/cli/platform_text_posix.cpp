#include "src/cli/platform_text.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

#include <system_error>

namespace usbsat::cli {

std::string_view no_usb_where() {
  return "under /sys (no /sys/bus/usb: this machine has no USB, or it is hidden, e.g. in a container or VM)";
}

std::optional<std::filesystem::path> executable_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || p.empty()) return std::nullopt;
  return p;
}

std::vector<std::filesystem::path> configured_sample_dirs() {
  return {USBSAT_RECORDINGS_DIR, USBSAT_SOURCE_SAMPLES_DIR};
}

std::optional<std::filesystem::path> state_home() {
  const bool root = ::geteuid() == 0;
  if (!root || !std::getenv("SUDO_USER")) {
    if (const char* x = std::getenv("XDG_STATE_HOME"); x && x[0] == '/') return std::filesystem::path(x);
    if (const char* h = std::getenv("HOME"); h && h[0] == '/' && !root)
      return std::filesystem::path(h) / ".local" / "state";
  }
  const struct passwd* pw = ::getpwuid(::geteuid());  // root: root's own home, whatever HOME says
  if (pw && pw->pw_dir && pw->pw_dir[0] == '/') return std::filesystem::path(pw->pw_dir) / ".local" / "state";
  return std::nullopt;
}

std::optional<std::string> host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return std::nullopt;
  return std::string(buf);
}

}  // namespace usbsat::cli
