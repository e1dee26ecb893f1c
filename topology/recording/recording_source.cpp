#include "topology/recording/recording_source.hpp"

namespace usbsat::topology::recording {

void RecordingSource::keep(const std::string& syspath, const std::optional<RawDevice>& d) {
  auto [it, inserted] = capture_.devices.try_emplace(syspath, d);
  if (!inserted && !it->second && d) it->second = d;
}

namespace {
/// Buses and classes only some machines have (USB4/Thunderbolt; DRM, asked only when a USB4 port names a
/// Type-C connector): an empty answer is not kept, so the recording of a
/// machine without them is the same as before usbsat asked; the replay answers an unrecorded bus with
/// nothing, the same answer.
bool optional_bus(std::string_view subsystem) {
  return subsystem == "thunderbolt" || subsystem == "drm";
}
}  // namespace

std::vector<RawDevice> RecordingSource::enumerate(std::string_view subsystem) {
  auto out = inner_.enumerate(subsystem);
  if (out.empty() && optional_bus(subsystem)) return out;
  auto& paths = capture_.enumerated[std::string(subsystem)];
  paths.clear();
  for (const auto& d : out) {
    paths.push_back(d.syspath);
    keep(d.syspath, d);
  }
  return out;
}

std::optional<RawDevice> RecordingSource::device(std::string_view syspath) {
  auto d = inner_.device(syspath);
  keep(std::string(syspath), d);
  return d;
}

std::optional<std::string> RecordingSource::attribute(std::string_view syspath, std::string_view name) {
  auto v = inner_.attribute(syspath, name);
  capture_.attributes[std::string(syspath)][std::string(name)] = v;
  return v;
}

std::optional<std::string> RecordingSource::binary_attribute(std::string_view syspath,
                                                             std::string_view name) {
  auto v = inner_.binary_attribute(syspath, name);
  capture_.binary_attributes[std::string(syspath)][std::string(name)] = v;
  return v;
}

std::optional<std::string> RecordingSource::link_target(std::string_view syspath, std::string_view name) {
  auto v = inner_.link_target(syspath, name);
  capture_.links[std::string(syspath)][std::string(name)] = v;
  return v;
}

std::vector<std::string> RecordingSource::list(std::string_view syspath, std::string_view name) {
  auto v = inner_.list(syspath, name);
  capture_.lists[std::string(syspath)][std::string(name)] = v;
  return v;
}

std::vector<HwdbEntry> RecordingSource::hwdb(std::string_view key) {
  auto v = inner_.hwdb(key);
  capture_.hwdb[std::string(key)] = v;
  return v;
}

std::optional<std::string> RecordingSource::read_text_file(std::string_view path) {
  auto v = inner_.read_text_file(path);
  capture_.files[std::string(path)] = v;
  return v;
}

std::vector<Diagnostic> RecordingSource::take_read_problems() {
  auto v = inner_.take_read_problems();
  if (!v.empty()) capture_.read_problems[problem_calls_] = v;
  ++problem_calls_;
  return v;
}

}  // namespace usbsat::topology::recording
