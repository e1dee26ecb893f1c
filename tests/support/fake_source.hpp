#pragma once
/// FakeSource: an in-memory DeviceSource for unit tests of the scan logic (ninja's VirtualFileSystem
/// analogue). Devices, attributes, symlinks, hwdb entries and files are declared by the test; directory
/// listings are derived from the declared paths.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "topology/model/errors.hpp"
#include "topology/scan/device_source.hpp"

namespace usbsat::testing {

class FakeSource final : public topology::DeviceSource {
 public:
  /// Declare a device; its directory exists from now on. `attrs` are name -> text (text gets a trailing
  /// newline added, as sysfs does).
  FakeSource& device(topology::RawDevice d, std::map<std::string, std::string> attrs = {}) {
    if (d.sysname.empty()) d.sysname = d.syspath.substr(d.syspath.rfind('/') + 1);
    for (auto& [k, v] : attrs) attr(d.syspath, k, v);
    dirs_.insert(d.syspath);
    devices_[d.syspath] = std::move(d);
    return *this;
  }
  /// A directory that is not a device (a usb_port, /sys/module/...), with attributes.
  FakeSource& dir(const std::string& path, std::map<std::string, std::string> attrs = {}) {
    dirs_.insert(path);
    for (auto& [k, v] : attrs) attr(path, k, v);
    return *this;
  }
  FakeSource& attr(const std::string& dir, const std::string& name, const std::string& text) {
    files_[dir + "/" + name] = text + "\n";
    return *this;
  }
  FakeSource& binary(const std::string& dir, const std::string& name, const std::string& bytes) {
    files_[dir + "/" + name] = bytes;
    return *this;
  }
  /// Symlink `dir/name` -> absolute `target`.
  FakeSource& link(const std::string& dir, const std::string& name, const std::string& target) {
    links_[dir + "/" + name] = target;
    return *this;
  }
  FakeSource& hwdb_entry(const std::string& key, const std::string& k, const std::string& v) {
    hwdb_[key].push_back({k, v});
    return *this;
  }
  FakeSource& text_file(const std::string& path, const std::string& text) {
    text_files_[path] = text;
    return *this;
  }
  /// An attribute that is listed but cannot be read (as a 0400 file of another user would be): attribute()
  /// gives nullopt and reports a read problem, as UdevSource does.
  FakeSource& unreadable(const std::string& dir, const std::string& name) {
    unreadable_.insert(dir + "/" + name);
    files_.erase(dir + "/" + name);
    dirs_.insert(dir);
    return *this;
  }
  /// Take away file or link `dir/name`, or every file below it where it is a directory.
  FakeSource& remove(const std::string& dir, const std::string& name) {
    const std::string path = dir + "/" + name;
    links_.erase(path);
    std::erase_if(files_, [&](const auto& f) { return f.first == path || f.first.starts_with(path + "/"); });
    return *this;
  }
  /// Make enumerate() fail like an unusable environment.
  void fail_enumeration() { fail_ = true; }
  /// Every attribute file's full path ("dir/name"), sorted: what the whole-scan fuzzer rewrites.
  std::vector<std::string> file_paths() const {
    std::vector<std::string> out;
    for (const auto& [path, text] : files_) out.push_back(path);
    return out;
  }
  /// Replace the raw bytes of file `path` ("dir/name"; no newline added): garbage as broken firmware or a
  /// hostile tree would leave it.
  FakeSource& raw_file(const std::string& path, std::string bytes) {
    files_[path] = std::move(bytes);
    return *this;
  }

  std::vector<topology::RawDevice> enumerate(std::string_view subsystem) override {
    if (fail_) throw topology::ScanError("enumeration failed");
    std::vector<topology::RawDevice> out;
    for (const auto& [path, d] : devices_)
      if (d.subsystem == subsystem) out.push_back(d);
    return out;
  }
  std::optional<topology::RawDevice> device(std::string_view syspath) override {
    auto it = devices_.find(std::string(syspath));
    if (it == devices_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<std::string> attribute(std::string_view syspath, std::string_view name) override {
    if (unreadable_.contains(std::string(syspath) + "/" + std::string(name))) {
      problems_.push_back({topology::Severity::Warning, std::string(syspath),
                           "attribute '" + std::string(name) + "': Permission denied"});
      return std::nullopt;
    }
    auto it = files_.find(std::string(syspath) + "/" + std::string(name));
    if (it == files_.end()) return std::nullopt;
    std::string v = it->second;
    if (!v.empty() && v.back() == '\n') v.pop_back();
    return v;
  }
  std::optional<std::string> binary_attribute(std::string_view syspath, std::string_view name) override {
    auto it = files_.find(std::string(syspath) + "/" + std::string(name));
    if (it == files_.end()) return std::nullopt;
    return it->second;
  }
  std::optional<std::string> link_target(std::string_view syspath, std::string_view name) override {
    auto it = links_.find(std::string(syspath) + "/" + std::string(name));
    if (it == links_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> list(std::string_view syspath, std::string_view name) override {
    std::string dir(syspath);
    if (!name.empty()) dir += "/" + std::string(name);
    std::set<std::string> out;
    auto take = [&](const std::string& path) {
      if (path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 || path[dir.size()] != '/')
        return;
      const auto rest = path.substr(dir.size() + 1);
      out.insert(rest.substr(0, rest.find('/')));
    };
    for (const auto& [p, v] : files_) take(p);
    for (const auto& [p, v] : links_) take(p);
    for (const auto& p : dirs_) take(p);
    for (const auto& p : unreadable_) take(p);
    return {out.begin(), out.end()};
  }
  std::vector<topology::HwdbEntry> hwdb(std::string_view key) override {
    auto it = hwdb_.find(std::string(key));
    return it == hwdb_.end() ? std::vector<topology::HwdbEntry>{} : it->second;
  }
  std::optional<std::string> read_text_file(std::string_view path) override {
    auto it = text_files_.find(std::string(path));
    if (it == text_files_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<topology::Diagnostic> take_read_problems() override { return std::exchange(problems_, {}); }

 private:
  std::map<std::string, topology::RawDevice> devices_;
  std::map<std::string, std::string> files_, links_, text_files_;
  std::set<std::string> dirs_, unreadable_;
  std::vector<topology::Diagnostic> problems_;
  std::map<std::string, std::vector<topology::HwdbEntry>> hwdb_;
  bool fail_ = false;
};

}  // namespace usbsat::testing
