#include <windows.h>

#include <filesystem>
#include <string>

#include "src/cli/platform_text.hpp"

namespace usbsat::cli {

std::string_view no_usb_where() {
  return "(Windows lists no USB host controller: this machine has no USB, or it is hidden, e.g. under wine or in a "
         "VM)";
}

std::string sample_recordings_dir() {
  std::wstring exe(MAX_PATH, L'\0');
  const DWORD n = ::GetModuleFileNameW(nullptr, exe.data(), static_cast<DWORD>(exe.size()));
  if (n == 0 || n >= exe.size()) return "share\\usbsat\\recordings";
  exe.resize(n);
  // <prefix>\bin\usbsat.exe -> <prefix>\share\usbsat\recordings (cmake --install's layout, GNUInstallDirs).
  const std::filesystem::path prefix = std::filesystem::path(exe).parent_path().parent_path();
  return (prefix / "share" / "usbsat" / "recordings").make_preferred().string();
}

std::optional<std::string> host_name() {
  char buf[256] = {};
  DWORD n = sizeof buf;
  if (!::GetComputerNameExA(ComputerNameDnsHostname, buf, &n) || n == 0) return std::nullopt;
  return std::string(buf, n);
}

}  // namespace usbsat::cli
