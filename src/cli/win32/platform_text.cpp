#include <windows.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "src/cli/platform_text.hpp"

namespace usbsat::cli {

std::string_view no_usb_where() {
  return "(Windows lists no USB host controller: this machine has no USB, or it is hidden, e.g. under wine "
         "or in a "
         "VM)";
}

std::optional<std::filesystem::path> executable_path() {
  std::wstring exe(MAX_PATH, L'\0');
  const DWORD n = ::GetModuleFileNameW(nullptr, exe.data(), static_cast<DWORD>(exe.size()));
  if (n == 0 || n >= exe.size()) return std::nullopt;
  exe.resize(n);
  return std::filesystem::path(exe);
}

// usbsat.exe is cross-built: the build machine's folders mean nothing where it runs. Only the folder beside
// the program (<prefix>\share\usbsat\recordings, cmake --install's layout) is tried.
std::vector<std::filesystem::path> configured_sample_dirs() {
  return {};
}

std::optional<std::filesystem::path> state_home() {
  const wchar_t* local = _wgetenv(L"LOCALAPPDATA");
  if (!local || !*local) return std::nullopt;
  return std::filesystem::path(local);
}

std::optional<std::string> host_name() {
  char buf[256] = {};
  DWORD n = sizeof buf;
  if (!::GetComputerNameExA(ComputerNameDnsHostname, buf, &n) || n == 0) return std::nullopt;
  return std::string(buf, n);
}

}  // namespace usbsat::cli
