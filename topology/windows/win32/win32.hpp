#pragma once
/// What the files of windows/win32/ share: <windows.h>, the RAII owner of a SetupAPI device information set
/// (unique_ptr with a stateless deleter, STYLE G3; a HANDLE's is topology/base/win32/unique_handle.hpp),
/// UTF-16 <-> UTF-8, and DeviceIoControl with one buffer. WIN32 builds only; these files are the only ones of
/// topology/ that include <windows.h>.
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#include <windows.h>
// windows.h first
#include <setupapi.h>

#include <cwchar>
#include <memory>
#include <optional>
#include <string>

#include "topology/base/win32/unique_handle.hpp"

namespace usbsat::topology::windows {

struct DevInfoCloser {
  void operator()(HDEVINFO h) const {
    if (h && h != INVALID_HANDLE_VALUE) SetupDiDestroyDeviceInfoList(h);
  }
};
using DevInfo = std::unique_ptr<void, DevInfoCloser>;

inline std::string utf8(const wchar_t* w, int n = -1) {
  if (!w) return {};
  const int len = WideCharToMultiByte(CP_UTF8, 0, w, n, nullptr, 0, nullptr, nullptr);
  if (len <= 0) return {};
  std::string s(static_cast<std::size_t>(len), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w, n, s.data(), len, nullptr, nullptr);
  if (n < 0 && !s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

inline std::wstring wide(const std::string& s) {
  const int len = MultiByteToWideChar(CP_UTF8, 0, s.c_str(), -1, nullptr, 0);
  std::wstring w(static_cast<std::size_t>(len > 0 ? len : 1), L'\0');
  if (len > 0) MultiByteToWideChar(CP_UTF8, 0, s.c_str(), -1, w.data(), len);
  w.resize(wcslen(w.c_str()));
  return w;
}

/// The device at `path`, opened for `access`; empty (false) when it cannot be opened, GetLastError() says
/// why.
inline UniqueHandle open_device(const std::wstring& path, DWORD access = GENERIC_WRITE) {
  return UniqueHandle(CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                  OPEN_EXISTING, 0, nullptr));
}

/// DeviceIoControl with one in/out buffer; the bytes returned, or nullopt on failure.
inline std::optional<DWORD> ioctl(HANDLE h, DWORD code, void* in, DWORD in_size, void* out, DWORD out_size) {
  DWORD got = 0;
  if (!DeviceIoControl(h, code, in, in_size, out, out_size, &got, nullptr)) return std::nullopt;
  return got;
}

}  // namespace usbsat::topology::windows
