#pragma once
/// LinuxCapture: every question a Linux scan asked its DeviceSource, with every answer — "absent" answers
/// included, so that ReplaySource answers exactly as the recorded system did. It is the `data` of a
/// recording whose platform is "linux" (topology/recording/recording.hpp); to_json/from_json are its one
/// JSON form (report/schemas/recording.schema.json, "linux_data").
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "topology/scan/device_source.hpp"

namespace usbsat::topology::recording {

template <class V>
using ByName = std::map<std::string, V, std::less<>>;
/// syspath -> attribute/link name -> answer (nullopt: absent).
using AnswersByPath = ByName<ByName<std::optional<std::string>>>;

struct LinuxCapture {
  ByName<std::vector<std::string>> enumerated;     ///< subsystem -> syspaths, in the order enumerate() gave
  ByName<std::optional<RawDevice>> devices;        ///< syspath -> record (nullopt: no device there)
  AnswersByPath attributes;                        ///< text attributes
  AnswersByPath binary_attributes;                 ///< raw bytes (`descriptors`, `bos_descriptors`)
  AnswersByPath links;                             ///< link targets
  ByName<ByName<std::vector<std::string>>> lists;  ///< directory listings
  ByName<std::vector<HwdbEntry>> hwdb;             ///< modalias key -> properties
  ByName<std::optional<std::string>> files;        ///< non-sysfs text files (mountinfo)
  /// take_read_problems() answers by call number (0-based); calls not listed returned nothing.
  std::map<std::size_t, std::vector<Diagnostic>> read_problems;
};

/// The JSON form: strings that are valid UTF-8 as JSON strings, other text as {"base64": "..."}, binary
/// attributes always as base64 strings.
nlohmann::json to_json(const LinuxCapture& c);
/// Parse the JSON form; a missing key, a wrong type or bad base64 throws RecordingError naming the place.
LinuxCapture linux_capture_from_json(const nlohmann::json& data);

/// RFC 4648 base64 (with padding). decode: nullopt on any character outside the alphabet or bad padding.
std::string base64_encode(std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace usbsat::topology::recording
