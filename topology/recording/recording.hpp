#pragma once
/// Recordings: everything a platform backend fetched during one scan, as one JSON document, so that every
/// read-only command can run on it later, on any machine (`usbsat record`, `usbsat --from FILE ...`).
///
///   {"format": "usbsat-recording", "version": 1, "platform": "linux" | "windows",
///    "recorded_at": "<RFC 3339 UTC>", "usbsat_version": "0.1.0", "host": "<host name or its pseudonym>",
///    "data": {...the platform's payload...},
///    "history": {...}}   (optional: the measurements of the recorded drives,
///    topology/history/store_json.hpp)
///
/// The envelope is shared by the platforms; `data` is the platform's own (Linux: linux_capture.hpp). Reading
/// dispatches on `platform` in one place (recording.cpp, payload_scan()).
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "topology/recording/recording_error.hpp"
#include "topology/scan/scan.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::recording {

inline constexpr std::string_view kFormat = "usbsat-recording";
/// The version this build writes and the newest it reads. A reader keeps reading every older version.
inline constexpr int kVersion = 1;
/// Larger files are refused before they are read (the biggest real system is a few MiB).
inline constexpr std::size_t kMaxRecordingBytes = 256u << 20;

/// The envelope's fields.
struct Envelope {
  int version = kVersion;
  std::string platform;        ///< "linux", "windows"
  std::string recorded_at;     ///< RFC 3339, UTC ("2024-05-01T12:00:00Z")
  std::string usbsat_version;  ///< of the usbsat that recorded
  std::string host;            ///< the host name, or its pseudonym (serials.hpp)
  nlohmann::json data;         ///< the platform payload, an object
  /// What the recorded machine's drives and links measured (a history store document), when it was recorded
  /// with some: `--from` predicts with it. Checked when it is used (topology/history/store_json.hpp).
  std::optional<nlohmann::json> history;
};

/// Parse and check a recording's text: JSON, the format name, a version this build reads, every key of the
/// envelope with its type. Throws RecordingError saying what is wrong. Pure.
Envelope parse_envelope(std::string_view text);

/// The document: the envelope with `data`, keys in the order above, two-space indented, a final newline.
std::string write_recording(const Envelope& e);

/// scan() over a recording: the same builder code as a live scan, on the recorded answers. Throws
/// RecordingError for a bad recording or a platform this build cannot read.
ScanResult scan_recording(const Envelope& e, const ScanConfig& config = {});
/// parse_envelope() + scan_recording().
ScanResult load_recording_text(std::string_view text, const ScanConfig& config = {});
/// The same from a file: a regular file of at most kMaxRecordingBytes (never a FIFO, which would block).
/// Messages name `path`.
ScanResult load_recording(const std::string& path, const ScanConfig& config = {});

/// One live Linux scan through a RecordingSource around `live`: the scan and the recording's text.
/// Serials become pseudonyms unless `keep_serials` (the scan result itself always has the real ones).
struct Recorded {
  ScanResult scan;
  std::string document;
};
Recorded record_linux(DeviceSource& live, const ScanConfig& config, Envelope meta, bool keep_serials);
/// The same for Windows: the live collector's snapshot through the builder (the scan) and as the recording's
/// `data` (serials hidden unless `keep_serials`); `collected`: the collector's diagnostics, first in the
/// scan's. Portable: tested on Linux with the Windows fixtures.
Recorded record_windows(windows::WindowsSnapshot snapshot, Envelope meta, bool keep_serials,
                        std::vector<Diagnostic> collected = {});
/// `usbsat record`: this system's live scan through the platform's recorder — record_linux() over libudev on
/// Linux (record_system_posix.cpp), record_windows() over the SetupAPI/IOCTL collector on Windows
/// (win32/record_system.cpp). Throws ScanError when the system cannot be scanned at all.
Recorded record_system(const ScanConfig& config, Envelope meta, bool keep_serials);

}  // namespace usbsat::topology::recording
