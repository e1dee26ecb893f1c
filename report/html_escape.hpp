#pragma once
/// The one escaping rule for HTML and inline SVG text and attribute values.
#include <string>
#include <string_view>

namespace usbsat::report {

/// `s` made safe as HTML/SVG character data or a double- or single-quoted attribute value: control
/// characters and invalid UTF-8 become `\xNN` (topology::escape_unprintable()), then & < > " ' become
/// character references.
std::string html_escape(std::string_view s);

}  // namespace usbsat::report
