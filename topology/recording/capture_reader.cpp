#include "topology/recording/capture_reader.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "topology/recording/recording.hpp"

namespace usbsat::topology::recording {
namespace {

using nlohmann::json;

/// Where the reader is: the JSON object or array being read, by what it holds.
enum class Frame : unsigned char {
  Envelope,     ///< the document: format, version, platform, ..., data
  Data,         ///< the Linux payload's nine sections
  Enumerate,    ///< subsystem -> EnumList
  EnumList,     ///< [syspath, ...]
  Devices,      ///< syspath -> null | Device
  Device,       ///< subsystem, devtype, sysname, driver, devnode, parent, properties
  Properties,   ///< name -> text
  Answers,      ///< syspath -> AnswerNames (attributes, binary_attributes, links)
  AnswerNames,  ///< name -> text | null (binary: base64 string | null)
  Lists,        ///< syspath -> ListNames
  ListNames,    ///< name -> ListEntries
  ListEntries,  ///< [text, ...]
  Hwdb,         ///< modalias -> HwdbList
  HwdbList,     ///< [HwdbPair, ...]
  HwdbPair,     ///< [text, text]
  Files,        ///< path -> text | null
  Problems,     ///< [Problem, ...]
  Problem,      ///< call, severity, where, message
  Base64,       ///< {"base64": "..."}: a text value of the level below
};

struct Level {
  Frame frame;
  unsigned seen = 0;  ///< keys seen (a bit each), or values seen (HwdbPair; Base64: 1 key, 2 value)
  int slot = -1;      ///< the index of the current key in the frame's fixed keys
  std::string key;    ///< the current key of a map-like object
};

constexpr std::array<std::string_view, 7> kEnvelopeKeys = {
    "format", "version", "platform", "recorded_at", "usbsat_version", "host", "data"};
enum EnvelopeKey {
  kFormatKey,
  kVersionKey,
  kPlatformKey,
  kRecordedAtKey,
  kUsbsatVersionKey,
  kHostKey,
  kDataKey
};
constexpr std::array<std::string_view, 9> kDataKeys = {
    "enumerate", "devices", "attributes", "binary_attributes", "links",
    "lists",     "hwdb",    "files",      "read_problems"};
enum DataKey {
  kEnumerate,
  kDevices,
  kAttributes,
  kBinaryAttributes,
  kLinks,
  kLists,
  kHwdb,
  kFiles,
  kReadProblems
};
constexpr std::array<std::string_view, 7> kDeviceKeys = {"subsystem", "devtype", "sysname",   "driver",
                                                         "devnode",   "parent",  "properties"};
enum DeviceKey { kParentKey = 5, kPropertiesKey = 6 };
constexpr std::array<std::string_view, 4> kProblemKeys = {"call", "severity", "where", "message"};
enum ProblemKey { kCallKey, kSeverityKey, kWhereKey, kMessageKey };

/// An object whose keys are names (syspaths, attribute names, ...), not a fixed list.
constexpr bool keyed_by_name(Frame f) {
  switch (f) {
    case Frame::Enumerate:
    case Frame::Devices:
    case Frame::Properties:
    case Frame::Answers:
    case Frame::AnswerNames:
    case Frame::Lists:
    case Frame::ListNames:
    case Frame::Hwdb:
    case Frame::Files:
      return true;
    default:
      return false;
  }
}

template <std::size_t N>
constexpr unsigned all_of(const std::array<std::string_view, N>&) {
  return (1u << N) - 1;
}

/// The SAX handler (nlohmann::json::sax_parse): every callback answers false, which ends the parse, as soon
/// as the text leaves the written shape.
class Reader {
 public:
  bool null();
  bool boolean(bool) { return false; }
  bool number_integer(json::number_integer_t v);
  bool number_unsigned(json::number_unsigned_t v);
  bool number_float(json::number_float_t, const json::string_t&) { return false; }
  bool string(json::string_t& s);
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t);
  bool key(json::string_t& k);
  bool end_object();
  bool start_array(std::size_t);
  bool end_array();
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  std::optional<FastLinuxRecording> finish() &&;

 private:
  bool push(Frame f) {
    stack_.push_back({f});
    return true;
  }
  bool pop() {
    stack_.pop_back();
    return true;
  }
  /// A new entry `key` of `map` (a duplicate ends the parse), read next as frame `f` into `target`.
  template <class Map, class T>
  bool open(Map& map, std::string&& key, T*& target, Frame f) {
    auto [it, added] = map.try_emplace(std::move(key));
    target = &it->second;
    return added && push(f);
  }
  bool top_is(Frame f) const { return !stack_.empty() && stack_.back().frame == f; }
  bool text(Level& at, std::string&& v);
  bool data_section(int slot);
  bool end_device();

  std::vector<Level> stack_;
  bool started_ = false, done_ = false;
  std::array<std::string, 7> envelope_;  ///< by EnvelopeKey (version and data unused)
  long long version_ = 0;
  LinuxCapture c_;
  AnswersByPath* answers_ = nullptr;  ///< the section Answers reads
  bool binary_ = false;               ///< ... and whether it is binary_attributes
  ByName<std::optional<std::string>>* names_ = nullptr;
  ByName<std::vector<std::string>>* list_names_ = nullptr;
  std::vector<std::string>* list_ = nullptr;
  std::vector<HwdbEntry>* hwdb_ = nullptr;
  HwdbEntry pair_;
  RawDevice device_;
  Diagnostic problem_;
  std::size_t call_ = 0;
};

template <std::size_t N>
bool fixed_key(Level& at, const std::array<std::string_view, N>& keys, std::string_view k) {
  for (std::size_t i = 0; i < N; ++i)
    if (keys[i] == k) {
      if (at.seen & (1u << i)) return false;  // a duplicate: the validating reader keeps the last one
      at.seen |= 1u << i;
      at.slot = static_cast<int>(i);
      return true;
    }
  return false;
}

bool Reader::key(json::string_t& k) {
  if (stack_.empty()) return false;
  Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Envelope:
      return fixed_key(at, kEnvelopeKeys, k);
    case Frame::Data:
      return fixed_key(at, kDataKeys, k);
    case Frame::Device:
      return fixed_key(at, kDeviceKeys, k);
    case Frame::Problem:
      return fixed_key(at, kProblemKeys, k);
    case Frame::Base64:
      if (at.seen != 0 || k != "base64") return false;
      at.seen = 1;
      return true;
    default:
      if (!keyed_by_name(at.frame)) return false;
      at.key = std::move(k);
      return true;
  }
}

bool Reader::data_section(int slot) {
  switch (slot) {
    case kEnumerate:
      return push(Frame::Enumerate);
    case kDevices:
      return push(Frame::Devices);
    case kAttributes:
    case kBinaryAttributes:
    case kLinks:
      answers_ = slot == kAttributes ? &c_.attributes : slot == kLinks ? &c_.links : &c_.binary_attributes;
      binary_ = slot == kBinaryAttributes;
      return push(Frame::Answers);
    case kLists:
      return push(Frame::Lists);
    case kHwdb:
      return push(Frame::Hwdb);
    case kFiles:
      return push(Frame::Files);
    default:
      return false;
  }
}

bool Reader::start_object(std::size_t) {
  if (stack_.empty()) {
    if (started_) return false;
    started_ = true;
    return push(Frame::Envelope);
  }
  Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Envelope:
      return at.slot == kDataKey && push(Frame::Data);
    case Frame::Data:
      return data_section(at.slot);
    case Frame::Devices:
      device_ = RawDevice{};
      device_.syspath = at.key;
      return push(Frame::Device);
    case Frame::Answers:
      return open(*answers_, std::move(at.key), names_, Frame::AnswerNames);
    case Frame::Lists:
      return open(c_.lists, std::move(at.key), list_names_, Frame::ListNames);
    case Frame::Problems:
      problem_ = Diagnostic{};
      return push(Frame::Problem);
    case Frame::Device:
      if (at.slot == kPropertiesKey) return push(Frame::Properties);
      return push(Frame::Base64);
    default:
      // A text value as {"base64": ...}; text() refuses it where only a plain string may stand.
      return at.frame != Frame::Base64 && push(Frame::Base64);
  }
}

bool Reader::end_device() {
  if (stack_.back().seen != all_of(kDeviceKeys)) return false;
  std::string path = device_.syspath;
  return c_.devices.try_emplace(std::move(path), std::move(device_)).second && pop();
}

bool Reader::end_object() {
  if (stack_.empty()) return false;
  const Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Base64:
      return at.seen == 2 && pop();
    case Frame::Envelope:
      done_ = at.seen == all_of(kEnvelopeKeys);
      return done_ && pop();
    case Frame::Data:
      return at.seen == all_of(kDataKeys) && pop();
    case Frame::Device:
      return end_device();
    case Frame::Problem:
      if (at.seen != all_of(kProblemKeys)) return false;
      c_.read_problems[call_].push_back(std::move(problem_));
      return pop();
    case Frame::ListNames:
      // An empty one leaves no trace in linux_capture_from_json's capture, and usbsat never writes it.
      return !list_names_->empty() && pop();
    default:
      return keyed_by_name(at.frame) && pop();
  }
}

bool Reader::start_array(std::size_t) {
  if (stack_.empty()) return false;
  Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Data:
      return at.slot == kReadProblems && push(Frame::Problems);
    case Frame::Enumerate:
      return open(c_.enumerated, std::move(at.key), list_, Frame::EnumList);
    case Frame::ListNames:
      return open(*list_names_, std::move(at.key), list_, Frame::ListEntries);
    case Frame::Hwdb:
      return open(c_.hwdb, std::move(at.key), hwdb_, Frame::HwdbList);
    case Frame::HwdbList:
      pair_ = HwdbEntry{};
      return push(Frame::HwdbPair);
    default:
      return false;
  }
}

bool Reader::end_array() {
  if (stack_.empty()) return false;
  switch (stack_.back().frame) {
    case Frame::EnumList:
    case Frame::ListEntries:
    case Frame::HwdbList:
    case Frame::Problems:
      return pop();
    case Frame::HwdbPair:
      if (stack_.back().seen != 2) return false;
      hwdb_->push_back(std::move(pair_));
      return pop();
    default:
      return false;
  }
}

bool Reader::null() {
  if (stack_.empty()) return false;
  Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Devices:
      return c_.devices.try_emplace(std::move(at.key), std::nullopt).second;
    case Frame::Device:
      return at.slot == kParentKey;  // device_.parent is already nullopt
    case Frame::AnswerNames:
      return names_->try_emplace(std::move(at.key), std::nullopt).second;
    case Frame::Files:
      return c_.files.try_emplace(std::move(at.key), std::nullopt).second;
    default:
      return false;
  }
}

bool Reader::number_integer(json::number_integer_t v) {
  if (!top_is(Frame::Envelope) || stack_.back().slot != kVersionKey) return false;
  version_ = v;
  return true;
}

bool Reader::number_unsigned(json::number_unsigned_t v) {
  if (top_is(Frame::Problem) && stack_.back().slot == kCallKey) {
    call_ = static_cast<std::size_t>(v);
    return true;
  }
  // Only the versions this build reads; anything larger is the validating reader's to refuse.
  if (v > static_cast<json::number_unsigned_t>(kVersion)) return false;
  return number_integer(static_cast<json::number_integer_t>(v));
}

bool Reader::text(Level& at, std::string&& v) {
  switch (at.frame) {
    case Frame::Device: {
      std::string* fields[] = {&device_.subsystem, &device_.devtype, &device_.sysname, &device_.driver,
                               &device_.devnode};
      if (at.slot == kParentKey) device_.parent = std::move(v);
      if (at.slot >= 0 && at.slot < kParentKey) *fields[at.slot] = std::move(v);
      return at.slot >= 0 && at.slot <= kParentKey;
    }
    case Frame::Properties:
      return device_.properties.try_emplace(std::move(at.key), std::move(v)).second;
    case Frame::AnswerNames:
      return !binary_ && names_->try_emplace(std::move(at.key), std::move(v)).second;
    case Frame::ListEntries:
      list_->push_back(std::move(v));
      return true;
    case Frame::HwdbPair:
      if (at.seen >= 2) return false;
      (at.seen++ == 0 ? pair_.key : pair_.value) = std::move(v);
      return true;
    case Frame::Files:
      return c_.files.try_emplace(std::move(at.key), std::move(v)).second;
    case Frame::Problem:
      if (at.slot != kWhereKey && at.slot != kMessageKey) return false;
      (at.slot == kWhereKey ? problem_.where : problem_.message) = std::move(v);
      return true;
    default:
      return false;
  }
}

bool Reader::string(json::string_t& s) {
  if (stack_.empty()) return false;
  Level& at = stack_.back();
  switch (at.frame) {
    case Frame::Base64: {
      auto bytes = base64_decode(s);
      if (at.seen != 1 || !bytes) return false;
      at.seen = 2;
      return text(stack_[stack_.size() - 2], std::move(*bytes));
    }
    case Frame::Envelope:
      if (at.slot == kVersionKey || at.slot == kDataKey) return false;
      envelope_[static_cast<std::size_t>(at.slot)] = std::move(s);
      return true;
    case Frame::EnumList:
      list_->push_back(std::move(s));
      return true;
    case Frame::AnswerNames:
      if (binary_) {
        auto bytes = base64_decode(s);
        return bytes && names_->try_emplace(std::move(at.key), std::move(*bytes)).second;
      }
      return text(at, std::move(s));
    case Frame::Problem:
      if (at.slot == kSeverityKey) {
        auto sev = parse_severity(s);
        if (sev) problem_.severity = *sev;
        return sev.has_value();
      }
      return text(at, std::move(s));
    default:
      return text(at, std::move(s));
  }
}

std::optional<FastLinuxRecording> Reader::finish() && {
  if (!done_ || envelope_[kFormatKey] != kFormat || envelope_[kPlatformKey] != "linux" || version_ < 1 ||
      version_ > kVersion)
    return std::nullopt;
  // Every enumerated device must have its record (linux_capture_from_json's check).
  for (const auto& [subsystem, paths] : c_.enumerated)
    for (const auto& p : paths) {
      auto it = c_.devices.find(p);
      if (it == c_.devices.end() || !it->second) return std::nullopt;
    }
  return FastLinuxRecording{std::move(envelope_[kHostKey]), std::move(c_)};
}

}  // namespace

std::optional<FastLinuxRecording> read_linux_recording_fast(std::string_view text) {
  Reader reader;
  try {
    if (!json::sax_parse(text, &reader)) return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return std::move(reader).finish();
}

}  // namespace usbsat::topology::recording
