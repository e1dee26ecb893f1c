#pragma once
/// The wall-clock timestamp of streamed events (`watch --json`, `top --json`).
#include <string>

namespace usbsat::cli {

/// Now as ISO 8601 UTC with milliseconds: "2026-12-01T21:04:05.123Z".
std::string utc_now_iso();

}  // namespace usbsat::cli
