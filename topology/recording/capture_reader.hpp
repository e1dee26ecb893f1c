#pragma once
/// The fast reader of a Linux recording: one streaming (SAX) pass over the text straight into a LinuxCapture,
/// with no JSON document in between (on the 10,000-USB-device machine of tests/bench/scale_bench.py the
/// document cost 3 of the 4.5 s of reading a 60 MB recording: building it, converting it, freeing it).
///
/// It accepts exactly the shape usbsat writes (linux_capture.hpp's to_json in the envelope of recording.hpp)
/// and nothing else: a duplicate or unknown key, a wrong type, bad base64, a version or platform it does not
/// take, a JSON syntax error — anything — and it answers nullopt without a word. The caller then reads the
/// text with the validating reader (parse_envelope() + linux_capture_from_json()), which names the problem in
/// a RecordingError, so every message stays that reader's. Pure; never throws for any input.
#include <optional>
#include <string>
#include <string_view>

#include "topology/recording/linux_capture.hpp"

namespace usbsat::topology::recording {

struct FastLinuxRecording {
  std::string host;  ///< the envelope's `host`
  LinuxCapture capture;
};

/// The capture linux_capture_from_json(parse_envelope(text).data) gives, when `text` is a valid Linux
/// recording of the exact written shape; nullopt for anything else (see above).
std::optional<FastLinuxRecording> read_linux_recording_fast(std::string_view text);

}  // namespace usbsat::topology::recording
