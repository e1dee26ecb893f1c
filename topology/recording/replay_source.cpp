#include "topology/recording/replay_source.hpp"

namespace usbsat::topology::recording {
namespace {

/// map[a][b], or a default-constructed answer when either is missing.
template <class Outer>
auto lookup(const Outer& m, std::string_view a, std::string_view b) {
  using Value = typename Outer::mapped_type::mapped_type;
  auto i = m.find(a);
  if (i == m.end()) return Value{};
  auto j = i->second.find(b);
  return j == i->second.end() ? Value{} : j->second;
}

}  // namespace

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

std::optional<std::string> ReplaySource::attribute(std::string_view syspath, std::string_view name) {
  return lookup(c_.attributes, syspath, name);
}

std::optional<std::string> ReplaySource::binary_attribute(std::string_view syspath, std::string_view name) {
  return lookup(c_.binary_attributes, syspath, name);
}

std::optional<std::string> ReplaySource::link_target(std::string_view syspath, std::string_view name) {
  return lookup(c_.links, syspath, name);
}

std::vector<std::string> ReplaySource::list(std::string_view syspath, std::string_view name) {
  return lookup(c_.lists, syspath, name);
}

std::vector<HwdbEntry> ReplaySource::hwdb(std::string_view key) {
  auto it = c_.hwdb.find(key);
  return it == c_.hwdb.end() ? std::vector<HwdbEntry>{} : it->second;
}

std::optional<std::string> ReplaySource::read_text_file(std::string_view path) {
  auto it = c_.files.find(path);
  return it == c_.files.end() ? std::optional<std::string>("") : it->second;
}

std::vector<Diagnostic> ReplaySource::take_read_problems() {
  auto it = c_.read_problems.find(problem_calls_++);
  return it == c_.read_problems.end() ? std::vector<Diagnostic>{} : it->second;
}

}  // namespace usbsat::topology::recording
