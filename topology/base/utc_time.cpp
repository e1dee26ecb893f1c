#include "topology/base/utc_time.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace usbsat::topology {

std::string format_utc(std::chrono::system_clock::time_point t, UtcFormat format) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(t);
  const auto day = floor<days>(ms);
  const year_month_day date{day};
  const hh_mm_ss time{ms - day};
  char buf[40];
  const int n =
      std::snprintf(buf, sizeof buf, "%04d-%02u-%02u%c%02d:%02d:%02d", static_cast<int>(date.year()),
                    static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                    format == UtcFormat::Readable ? ' ' : 'T', static_cast<int>(time.hours().count()),
                    static_cast<int>(time.minutes().count()), static_cast<int>(time.seconds().count()));
  std::string out(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  switch (format) {
    case UtcFormat::Seconds:
      return out + "Z";
    case UtcFormat::Milliseconds:
      std::snprintf(buf, sizeof buf, ".%03dZ", static_cast<int>(time.subseconds().count()));
      return out + buf;
    case UtcFormat::Readable:
      return out + " UTC";
  }
  return out + "Z";
}

std::string utc_now(UtcFormat format) {
  return format_utc(std::chrono::system_clock::now(), format);
}

std::optional<std::chrono::system_clock::time_point> parse_source_date_epoch(std::string_view value) {
  // At most 12 digits: year 33658, far inside what system_clock holds on every platform.
  if (value.empty() || value.size() > 12 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::int64_t secs = 0;
  std::from_chars(value.data(), value.data() + value.size(), secs);
  return std::chrono::system_clock::time_point{std::chrono::seconds{secs}};
}

std::chrono::system_clock::time_point reproducible_now() {
  if (const char* e = std::getenv("SOURCE_DATE_EPOCH"))
    if (auto t = parse_source_date_epoch(e)) return *t;
  return std::chrono::system_clock::now();
}

}  // namespace usbsat::topology
