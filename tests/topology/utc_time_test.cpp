#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <string_view>

#include "topology/base/utc_time.hpp"

using namespace usbsat::topology;
using namespace std::chrono;

TEST_CASE("format_utc: RFC 3339 with seconds or milliseconds, and a readable form") {
  struct Row {
    system_clock::time_point t;
    UtcFormat format;
    std::string_view want;
  };
  const auto t =
      system_clock::time_point{seconds{1764623045} + milliseconds{123}};  // 2025-12-01 21:04:05.123
  const Row rows[] = {
      {t, UtcFormat::Seconds, "2025-12-01T21:04:05Z"},
      {t, UtcFormat::Milliseconds, "2025-12-01T21:04:05.123Z"},
      {t, UtcFormat::Readable, "2025-12-01 21:04:05 UTC"},
      {system_clock::time_point{}, UtcFormat::Milliseconds, "1970-01-01T00:00:00.000Z"},
      {system_clock::time_point{seconds{951782399}}, UtcFormat::Seconds, "2000-02-28T23:59:59Z"},
      {system_clock::time_point{seconds{951782400}}, UtcFormat::Seconds, "2000-02-29T00:00:00Z"},  // leap day
      {system_clock::time_point{seconds{4102444799} + milliseconds{999}}, UtcFormat::Milliseconds,
       "2099-12-31T23:59:59.999Z"},
      {system_clock::time_point{milliseconds{1500}}, UtcFormat::Seconds,
       "1970-01-01T00:00:01Z"},  // cut, not rounded
  };
  for (const auto& r : rows) {
    CAPTURE(r.want);
    CHECK(format_utc(r.t, r.format) == r.want);
  }
}

TEST_CASE("parse_source_date_epoch: a non-negative decimal count of seconds") {
  CHECK(parse_source_date_epoch("0") == system_clock::time_point{});
  CHECK(parse_source_date_epoch("1764623045") == system_clock::time_point{seconds{1764623045}});
  for (std::string_view bad : {"", "-1", "+5", " 5", "5 ", "1e9", "0x10", "abc", "9999999999999"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_source_date_epoch(bad));
  }
}

TEST_CASE("utc_now: the wall clock now, formatted") {
  // RFC 3339 UTC strings of one width sort as the times they name.
  const auto before = format_utc(system_clock::now(), UtcFormat::Milliseconds);
  const auto now = utc_now(UtcFormat::Milliseconds);
  const auto after = format_utc(system_clock::now(), UtcFormat::Milliseconds);
  CHECK(before <= now);
  CHECK(now <= after);
  CHECK(now.size() == std::string_view("2025-12-01T21:04:05.123Z").size());
}
