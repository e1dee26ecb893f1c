#pragma once
/// `usbsat watch`: one verdict per hotplug event of a USB drive, as text lines or one JSON object per line
/// (JSON Lines, report/schemas/watch-event.schema.json), over the watch verdict itself (no input type of its
/// own: topology/results/watch.hpp); the wording of drives, connectors and nodes comes from
/// topology/describe.
#include <string>
#include <string_view>

#include "report/style.hpp"
#include "topology/results/watch.hpp"

namespace usbsat::report {

/// The watch analysis's verdict, rendered as it is: the one type (topology/results/watch.hpp).
using results::WatchVerdict;

/// Why the drive runs the protocol it does, one sentence ("" when the protocol is unknown).
std::string protocol_reason(const WatchVerdict& v);

/// Text: one headline ("+ sdb: ...", "- sdb: ...") and, for an added drive, indented lines for the connector,
/// speed, protocol, sharing, findings and advice.
std::string render_watch_text(const WatchVerdict& v, const TextStyle& style = {});
/// One JSON object on one line, newline-terminated; `time` is when the event came (ISO 8601 UTC, set by the
/// command; "" in pure tests: null).
std::string render_watch_json(const WatchVerdict& v, std::string_view time = {});

}  // namespace usbsat::report
