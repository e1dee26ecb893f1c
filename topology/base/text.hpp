#pragma once
/// Small text helpers every part of the topology module (and its users) shares: one definition of
/// "whitespace", of a device node's name and of a USB id pair's spelling.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::topology {

/// Strip surrounding ASCII whitespace (space, tab, newline, carriage return, vertical tab, form feed):
/// " SanDisk 3.2Gen1\n" -> "SanDisk 3.2Gen1".
std::string_view trim(std::string_view s);

/// A block device's kernel name from its node: "/dev/sda" -> "sda"; "sda" stays "sda".
std::string_view strip_dev_prefix(std::string_view s);

/// The last component of a path: "/sys/devices/x/sda" -> "sda"; a path without '/' is returned whole.
std::string_view path_basename(std::string_view path);
/// Everything before the last '/': "/sys/devices/x" -> "/sys/devices"; "" when nothing is left ("/sys",
/// "sda").
std::string_view path_dirname(std::string_view path);

/// The parts with `sep` between them: join({"a", "b"}, ", ") -> "a, b"; join({}, ", ") -> "".
std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// A C string from a C library that may return NULL (libudev): NULL -> "".
inline std::string from_c_str(const char* s) {
  return s ? std::string(s) : std::string();
}

/// Four lower-case hex digits, as lsusb prints one USB id: 0x0781 -> "0781".
std::string format_hex4(std::uint16_t v);

/// "0781:558c", as lsusb prints a vendor:product pair.
std::string format_vid_pid(std::uint16_t vid, std::uint16_t pid);

}  // namespace usbsat::topology
