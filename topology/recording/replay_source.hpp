#pragma once
/// ReplaySource: the DeviceSource that answers from a LinuxCapture, as the recorded system answered. A
/// question the recording never saw (a later usbsat that reads one more attribute) gets "absent", the answer
/// a system without that file gives, so old recordings keep loading. The exception is a text file the
/// recording never read (a recording made with --mountinfo ''): it is empty, so replaying it shows no mounts,
/// and no warning about an unreadable /proc/self/mountinfo that the recorded machine never had.
///
/// A recording is held to the live scan's caps (topology/scan/read_limits.hpp): a text attribute longer than
/// a live scan reads is cut to that length, and a binary attribute or text file over its cap is absent, each
/// with a warning in the next take_read_problems(), so a hostile or damaged recording cannot feed megabytes
/// of name into the renderers.
#include "topology/recording/linux_capture.hpp"

namespace usbsat::topology::recording {

class ReplaySource final : public DeviceSource {
 public:
  explicit ReplaySource(LinuxCapture capture) : c_(std::move(capture)) {}
  ReplaySource(const ReplaySource&) = delete;  // the LastRow caches point into c_
  ReplaySource& operator=(const ReplaySource&) = delete;

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
  /// The row (syspath -> name -> answer) of the syspath asked last: the scanner asks for many names of one
  /// syspath in a row, and finding the row again compared long syspaths with a common prefix at every
  /// level of the map (`memcmp`, 8 % of `export` on the 10,000-device machine of tests/bench/scale_bench.py).
  template <class Outer>
  struct LastRow {
    typename Outer::const_iterator it{};
    bool valid = false;
    /// map[syspath][name], or a default-constructed answer when either is missing.
    typename Outer::mapped_type::mapped_type get(const Outer& m, std::string_view syspath,
                                                 std::string_view name) {
      if (!valid || it == m.end() || it->first != syspath) {
        it = m.find(syspath);
        valid = true;
      }
      if (it == m.end()) return {};
      auto j = it->second.find(name);
      return j == it->second.end() ? typename Outer::mapped_type::mapped_type{} : j->second;
    }
  };

  /// `value`, held to `cap`: text is cut (at a UTF-8 character boundary), anything else dropped; either way
  /// a warning naming `syspath` and `what` waits for the next take_read_problems().
  std::optional<std::string> capped(std::optional<std::string> value, std::string_view syspath,
                                    std::string_view what, std::size_t cap, bool cut);

  LinuxCapture c_;
  LastRow<AnswersByPath> attributes_, binary_attributes_, links_;
  LastRow<decltype(LinuxCapture::lists)> lists_;
  std::size_t problem_calls_ = 0;
  std::vector<Diagnostic> over_cap_;  ///< warnings from capped() not yet taken
};

}  // namespace usbsat::topology::recording
