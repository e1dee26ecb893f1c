#pragma once
/// RecordingSource: a DeviceSource decorator that passes every question to the real source (UdevSource) and
/// keeps each answer — absent ones too — in a LinuxCapture, so that ReplaySource can answer the same
/// questions the same way. scan() over it is an ordinary live scan.
#include "topology/recording/linux_capture.hpp"

namespace usbsat::topology::recording {

class RecordingSource final : public DeviceSource {
 public:
  explicit RecordingSource(DeviceSource& inner) : inner_(inner) {}

  std::vector<RawDevice> enumerate(std::string_view subsystem) override;
  std::optional<RawDevice> device(std::string_view syspath) override;
  std::optional<std::string> attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> binary_attribute(std::string_view syspath, std::string_view name) override;
  std::optional<std::string> link_target(std::string_view syspath, std::string_view name) override;
  std::vector<std::string> list(std::string_view syspath, std::string_view name) override;
  std::vector<HwdbEntry> hwdb(std::string_view key) override;
  std::optional<std::string> read_text_file(std::string_view path) override;
  std::vector<Diagnostic> take_read_problems() override;

  const LinuxCapture& capture() const { return capture_; }

 private:
  /// A device record beats an earlier "no device here" for the same syspath; otherwise the first answer
  /// stays.
  void keep(const std::string& syspath, const std::optional<RawDevice>& d);

  DeviceSource& inner_;
  LinuxCapture capture_;
  std::size_t problem_calls_ = 0;
};

}  // namespace usbsat::topology::recording
