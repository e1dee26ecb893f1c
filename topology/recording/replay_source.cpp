#include "topology/recording/replay_source.hpp"

#include <string>

#include "topology/scan/read_limits.hpp"

namespace usbsat::topology::recording {
std::vector<RawDevice> ReplaySource::enumerate(std::string_view subsystem) {
  std::vector<RawDevice> out;
  auto it = c_.enumerated.find(subsystem);
  if (it == c_.enumerated.end()) return out;
  // linux_capture_from_json checked that every enumerated syspath has a record.
  for (const auto& p : it->second) out.push_back(*c_.devices.at(p));
  return out;
}

std::optional<RawDevice> ReplaySource::device(std::string_view syspath) {
  auto it = c_.devices.find(syspath);
  return it == c_.devices.end() ? std::nullopt : it->second;
}

std::optional<std::string> ReplaySource::capped(std::optional<std::string> value, std::string_view syspath,
                                                std::string_view what, std::size_t cap, bool cut) {
  if (!value || value->size() <= cap) return value;
  const auto size = value->size();
  std::string message = std::string(what) + ": " + std::to_string(size) +
                        " bytes in the recording, more than the " + std::to_string(cap) +
                        " a live scan reads; ";
  if (cut) {
    std::size_t end = cap;  // do not split a UTF-8 sequence: back up over continuation bytes
    while (end > 0 && (static_cast<unsigned char>((*value)[end]) & 0xC0) == 0x80) --end;
    value->resize(end);
    message += "cut to " + std::to_string(end) + " bytes";
  } else {
    value.reset();
    message += "not read";
  }
  over_cap_.push_back({Severity::Warning, std::string(syspath), std::move(message)});
  return value;
}

std::optional<std::string> ReplaySource::attribute(std::string_view syspath, std::string_view name) {
  return capped(attributes_.get(c_.attributes, syspath, name), syspath,
                "attribute '" + std::string(name) + "'", read_limits::kTextAttribute, true);
}

std::optional<std::string> ReplaySource::binary_attribute(std::string_view syspath, std::string_view name) {
  return capped(binary_attributes_.get(c_.binary_attributes, syspath, name), syspath,
                "attribute '" + std::string(name) + "'", read_limits::kBinaryAttribute, false);
}

std::optional<std::string> ReplaySource::link_target(std::string_view syspath, std::string_view name) {
  return links_.get(c_.links, syspath, name);
}

std::vector<std::string> ReplaySource::list(std::string_view syspath, std::string_view name) {
  return lists_.get(c_.lists, syspath, name);
}

std::vector<HwdbEntry> ReplaySource::hwdb(std::string_view key) {
  auto it = c_.hwdb.find(key);
  return it == c_.hwdb.end() ? std::vector<HwdbEntry>{} : it->second;
}

std::optional<std::string> ReplaySource::read_text_file(std::string_view path) {
  auto it = c_.files.find(path);
  if (it == c_.files.end()) return std::optional<std::string>("");
  return capped(it->second, path, "file", read_limits::kTextFile, false);
}

std::vector<Diagnostic> ReplaySource::take_read_problems() {
  auto it = c_.read_problems.find(problem_calls_++);
  auto out = it == c_.read_problems.end() ? std::vector<Diagnostic>{} : it->second;
  out.insert(out.end(), over_cap_.begin(), over_cap_.end());
  over_cap_.clear();
  return out;
}

}  // namespace usbsat::topology::recording
