#pragma once
/// SafeSource: the boundary where device strings enter the topology model. A DeviceSource decorator that
/// passes every answer of the source it wraps through the one sanitiser (trim_and_escape(),
/// topology/words/escape.hpp) before the scanner sees it, so no field of the model — present or added later —
/// can hold a raw control character, bidi override or invalid UTF-8 from sysfs, udev or a recording. scan()
/// wraps every source in it; binary attributes (descriptors) pass unchanged, they are parsed, never shown.
///
/// Paths (syspaths, sysnames, link targets, listing entries) are escaped too but not trimmed. A path that
/// escaping changed is remembered with its raw form, so the scanner's questions about it (or about a path
/// built from it: its parent directory, an entry below it) still reach the raw file.
#include <map>
#include <string>

#include "topology/scan/device_source.hpp"

namespace usbsat::topology {

class SafeSource final : public DeviceSource {
 public:
  explicit SafeSource(DeviceSource& inner) : inner_(inner) {}
  SafeSource(const SafeSource&) = delete;
  SafeSource& operator=(const SafeSource&) = delete;

  std::vector<RawDevice> enumerate(std::string_view subsystem) override;
  std::optional<RawDevice> device(std::string_view syspath) override;
  std::optional<std::string> attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> binary_attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> link_target(std::string_view syspath, std::string_view name) override;
  std::vector<std::string> list(std::string_view syspath, std::string_view name) override;
  std::vector<HwdbEntry> hwdb(std::string_view key) override;
  std::optional<std::string> read_text_file(std::string_view path) override;
  std::vector<Diagnostic> take_read_problems() override;

 private:
  /// The escaped form of raw path `raw`; remembers it (and each escaped prefix) when escaping changed it.
  std::string safe_path(std::string raw);
  /// The raw form of a path the scanner built from escaped ones: the longest remembered prefix (at a '/')
  /// replaced by its raw form; unchanged when nothing was escaped.
  std::string raw_path(std::string_view safe) const;
  RawDevice safe_device(RawDevice r);

  DeviceSource& inner_;
  std::map<std::string, std::string, std::less<>> raw_;  ///< escaped path -> raw path, changed ones only
};

}  // namespace usbsat::topology
