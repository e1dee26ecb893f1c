#pragma once
/// The history store as a JSON document (schema: report/schemas/history.schema.json):
///
///   {"format": "usbsat-history", "version": 1,
///    "drives": [{"key", "vid_pid", "serial", "size_bytes", "model", "measurements": [{"date", "version",
///                "command", "pattern", "block_size", "queue_depth", "group", "mbs", "iops", "device",
///                "connector", "rate", "protocol", "controller"}]}],
///    "resources": [{"id", "identity", "kind", "label", "measured_mbs", "model_mbs", "at_least", "date",
///                   "version", "drives"}]}
///
/// Reading is strict, since the file is outside usbsat's control: a key missing or of the wrong type, a
/// number out of range, a control character in a string, a drive key that does not match its parts, more
/// entries than the store's bounds: the document is refused with one sentence saying what and where.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "topology/history/store.hpp"

namespace usbsat::history {

inline constexpr std::string_view kFormat = "usbsat-history";
/// The version this build writes and reads; a newer one is refused (and never overwritten).
inline constexpr int kVersion = 1;
/// Larger files are refused before they are parsed (a full store is well under 2 MiB).
inline constexpr std::size_t kMaxStoreBytes = 8u << 20;

/// The document, keys in the order above.
nlohmann::ordered_json to_json(const Store& s);
/// The document's text: to_json(), two-space indented, a final newline.
std::string write_store(const Store& s);

struct ParsedStore {
  std::optional<Store> store;
  std::string error;  ///< set when `store` is absent: "drives[3].measurements[0].mbs: not a number"
  bool foreign_version = false;  ///< a version this build does not read (newer)
};
ParsedStore parse_store(const nlohmann::json& doc);
/// parse_store() of a document's text (invalid JSON and over-long text are errors too).
ParsedStore parse_store_text(std::string_view text);

}  // namespace usbsat::history
