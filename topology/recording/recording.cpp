#include "topology/recording/recording.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "topology/recording/capture_reader.hpp"
#include "topology/recording/recording_source.hpp"
#include "topology/recording/replay_source.hpp"
#include "topology/recording/serials.hpp"
#include "topology/windows/builder.hpp"
#include "topology/windows/snapshot_json.hpp"

namespace usbsat::topology::recording {
namespace {

using nlohmann::json;

std::string envelope_string(const json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end()) throw RecordingError(std::string("missing key \"") + key + "\"");
  if (!it->is_string()) throw RecordingError(std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

ScanResult replay(LinuxCapture capture, const ScanConfig& config) {
  ReplaySource source(std::move(capture));
  return scan(source, config);
}

/// The scan of a fast-read recording (capture_reader.hpp). One named result, one return: a moved ScanResult
/// copies its graph (boost's adjacency_list has no move constructor).
ScanResult replay_fast(FastLinuxRecording r, const ScanConfig& config) {
  ScanResult result = replay(std::move(r.capture), config);
  result.recorded_host = std::move(r.host);
  return result;
}

// ---- THE platform dispatch point (the only place that knows which platforms this build reads) ----------
ScanResult payload_scan(const Envelope& e, const ScanConfig& config) {
  if (e.platform == "linux") {
    return replay(linux_capture_from_json(e.data), config);
  }
  if (e.platform == "windows") {
    // The Windows backend's builder (topology/windows/builder.hpp), the same code a live Windows scan runs.
    // ScanConfig's Linux knobs (mountinfo, hwdb, virtual block devices) have no meaning for this payload.
    try {
      return windows::build_topology(e.data);
    } catch (const ScanError& err) {
      throw RecordingError(err.what());
    }
  }
  throw RecordingError("unknown platform \"" + e.platform +
                       "\" (this build reads \"linux\" and \"windows\" recordings)");
}

}  // namespace

Envelope parse_envelope(std::string_view text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& ex) {
    // "parse error at line 1, column 7: syntax error ..." without nlohmann's "[json.exception...]" prefix.
    std::string what = ex.what();
    if (auto at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
    throw RecordingError("not a JSON document (" + what + ")");
  }
  if (!doc.is_object()) throw RecordingError("not a usbsat recording (the document is not a JSON object)");
  const std::string format = envelope_string(doc, "format");
  if (format != kFormat)
    throw RecordingError("not a usbsat recording (format is \"" + format + "\", expected \"" +
                         std::string(kFormat) + "\")");
  auto v = doc.find("version");
  if (v == doc.end()) throw RecordingError("missing key \"version\"");
  if (!v->is_number_integer()) throw RecordingError("\"version\" is not an integer");
  const auto version = v->get<long long>();
  if (version > kVersion)
    throw RecordingError("recording version " + std::to_string(version) +
                         " is newer than this usbsat reads (" + std::to_string(kVersion) +
                         "): use a newer usbsat");
  if (version < 1) throw RecordingError("recording version " + std::to_string(version) + " does not exist");
  Envelope e;
  e.version = static_cast<int>(version);
  e.platform = envelope_string(doc, "platform");
  e.recorded_at = envelope_string(doc, "recorded_at");
  e.usbsat_version = envelope_string(doc, "usbsat_version");
  e.host = envelope_string(doc, "host");
  auto d = doc.find("data");
  if (d == doc.end()) throw RecordingError("missing key \"data\"");
  if (!d->is_object()) throw RecordingError("\"data\" is not an object");
  e.data = std::move(*d);
  if (auto h = doc.find("history"); h != doc.end()) {
    if (!h->is_object()) throw RecordingError("\"history\" is not an object");
    e.history = std::move(*h);
  }
  return e;
}

std::string write_recording(const Envelope& e) {
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = e.version;
  doc["platform"] = e.platform;
  doc["recorded_at"] = e.recorded_at;
  doc["usbsat_version"] = e.usbsat_version;
  doc["host"] = e.host;
  doc["data"] = e.data;
  if (e.history) doc["history"] = *e.history;
  // Text that is not UTF-8 is already base64 in the payload; keys never are (replace is a last resort).
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

ScanResult scan_recording(const Envelope& e, const ScanConfig& config) {
  auto result = payload_scan(e, config);
  result.recorded_host = e.host;
  if (e.history) result.recorded_history = e.history->dump();
  return result;
}

ScanResult load_recording_text(std::string_view text, const ScanConfig& config) {
  // A Linux recording as usbsat writes it streams straight into its capture (capture_reader.hpp); anything
  // else, and every bad recording, goes through the validating reader, which says what is wrong.
  if (auto fast = read_linux_recording_fast(text)) return replay_fast(std::move(*fast), config);
  return scan_recording(parse_envelope(text), config);
}

ScanResult load_recording(const std::string& path, const ScanConfig& config) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw RecordingError(path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw RecordingError(path + ": not a regular file");
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxRecordingBytes)
    throw RecordingError(path + ": larger than " + std::to_string(kMaxRecordingBytes >> 20) +
                         " MiB, not a recording of one system");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RecordingError(path + ": " + std::strerror(errno));
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));  // a file that shrank since stat()
  try {
    return load_recording_text(text, config);
  } catch (const RecordingError& ex) {
    throw RecordingError(path + ": " + ex.what());
  }
}

Recorded record_linux(DeviceSource& live, const ScanConfig& config, Envelope meta, bool keep_serials) {
  RecordingSource source(live);
  Recorded r{scan(source, config), {}};
  LinuxCapture capture = source.capture();
  if (!keep_serials) hide_serials(capture);
  meta.platform = "linux";
  meta.version = kVersion;
  meta.data = to_json(capture);
  r.document = write_recording(meta);
  return r;
}

Recorded record_windows(windows::WindowsSnapshot snapshot, Envelope meta, bool keep_serials,
                        std::vector<Diagnostic> collected) {
  Recorded r{windows::build_topology(snapshot, std::move(collected)), {}};
  if (!keep_serials) hide_serials(snapshot);
  meta.platform = "windows";
  meta.version = kVersion;
  meta.data = windows::snapshot_to_json(snapshot);
  r.document = write_recording(meta);
  return r;
}

}  // namespace usbsat::topology::recording
