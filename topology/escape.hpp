#pragma once
/// Escaping for the text renderers (JSON strings are escaped by report/json_common's dump_json). sysfs
/// strings (product, serial, model) come from device firmware and may hold control characters or invalid
/// UTF-8; a renderer never passes them through raw.
#include <string>
#include <string_view>

namespace usbsat::topology {

/// Text-safe copy for terminal output: control characters (C0, DEL and the C1 range U+0080..U+009F) become
/// "\xNN" byte by byte, invalid UTF-8 bytes become "\xNN", other valid multi-byte UTF-8 is kept.
std::string text_safe(std::string_view s);

/// text_safe() for whole blocks of renderer output: the same rule, except that the layout characters '\n'
/// and '\t' are kept. Every text renderer passes what it prints through this (or text_safe per field), so a
/// device string holding ESC or BEL never reaches the terminal raw.
std::string terminal_safe(std::string_view s);

/// For display of firmware strings: text_safe(), then leading/trailing blanks dropped and inner runs of
/// blanks collapsed to one ("VIA Labs, Inc.         " -> "VIA Labs, Inc."). JSON keeps the raw value.
std::string display_string(std::string_view s);

}  // namespace usbsat::topology
