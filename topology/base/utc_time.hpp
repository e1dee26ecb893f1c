#pragma once
/// Time stamps, the one formatter: a recording's "recorded_at", the report page's time and the time of every
/// streamed event (`watch --json`, `top`). Always UTC, from the calendar arithmetic of <chrono> (no gmtime,
/// so the same on every platform).
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

enum class UtcFormat {
  Seconds,       ///< "2026-12-01T21:04:05Z" (RFC 3339)
  Milliseconds,  ///< "2026-12-01T21:04:05.123Z" (RFC 3339)
  Readable,      ///< "2026-12-01 21:04:05 UTC"
};

std::string format_utc(std::chrono::system_clock::time_point t, UtcFormat format);
/// format_utc() of the wall clock now: the time of a streamed event (`watch`, `top`).
std::string utc_now(UtcFormat format);

/// A SOURCE_DATE_EPOCH value (the reproducible-builds convention): a non-negative decimal count of seconds
/// since 1970 -> that time; anything else -> nullopt.
std::optional<std::chrono::system_clock::time_point> parse_source_date_epoch(std::string_view value);

/// SOURCE_DATE_EPOCH when it is set and valid (reproducible recordings and pages), else now.
std::chrono::system_clock::time_point reproducible_now();

}  // namespace usbsat::topology
