#pragma once
/// Escaping for the text renderers (JSON strings are escaped by report/json_common's dump_json). sysfs
/// strings (product, serial, model) come from device firmware and may hold control characters or invalid
/// UTF-8; a renderer never passes them through raw.
#include <string>
#include <string_view>

namespace usbsat::topology {

/// Escapes what a terminal would not print as text: control characters (C0, DEL and the C1 range
/// U+0080..U+009F) become "\xNN" byte by byte, invalid UTF-8 bytes become "\xNN", bidirectional formatting
/// characters (U+202A..202E, U+2066..2069, U+200E, U+200F, U+061C) become "\uNNNN", other valid multi-byte
/// UTF-8 is kept.
std::string escape_unprintable(std::string_view s);

/// THE sanitiser for every string that enters the topology model from a device source (sysfs/udev or a
/// recording; topology/scan/safe_source.hpp applies it): surrounding blanks trimmed first — so a padded USB
/// string descriptor (" SanDisk\n") loses its padding instead of keeping it as "\x0a" — then
/// escape_unprintable().
std::string trim_and_escape(std::string_view s);
/// trim_and_escape() of a string the caller gives up: returned as it is, without a copy, when nothing changes
/// (printable ASCII without surrounding blanks: nearly every sysfs string).
std::string trim_and_escape_move(std::string&& s);
/// Whether escape_unprintable() returns `s` unchanged because it is all printable ASCII.
bool is_printable_ascii(std::string_view s);
/// Whether trim_and_escape() returns `s` unchanged: printable ASCII without surrounding blanks.
bool is_trimmed_printable_ascii(std::string_view s);

/// escape_unprintable() for whole blocks of renderer output: the same rule, except that the layout characters
/// '\n' and '\t' are kept. Every text renderer passes what it prints through this (or escape_unprintable per
/// field), so a device string holding ESC or BEL never reaches the terminal raw.
std::string terminal_safe(std::string_view s);

/// For display of firmware strings: escape_unprintable(), then leading/trailing blanks dropped and inner runs
/// of blanks collapsed to one ("VIA Labs, Inc.         " -> "VIA Labs, Inc."). JSON keeps the value as the
/// scan boundary made it (escaped, inner blanks not collapsed).
std::string display_string(std::string_view s);

}  // namespace usbsat::topology
