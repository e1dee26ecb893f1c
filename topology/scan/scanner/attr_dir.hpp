#pragma once
/// AttrDir: the attributes of one sysfs directory, read through the DeviceSource. Listing the directory once
/// makes an absent attribute cost no open(); where most attributes are present the listing is skipped.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/base/text.hpp"
#include "topology/scan/device_source.hpp"

namespace usbsat::topology::scanner {

class AttrDir {
 public:
  /// `listed`: list the directory once (worth it where many attributes may be absent); otherwise every
  /// attribute is simply tried.
  AttrDir(DeviceSource& src, std::string syspath, bool listed = true)
      : src_(&src), syspath_(std::move(syspath)), listed_(listed) {
    if (listed_) names_ = src_->list(syspath_, "");
  }
  /// Whether the directory exists (as far as a listing can tell: an unlistable one looks absent).
  bool exists() const { return !listed_ || !names_.empty(); }
  bool has(std::string_view name) const {
    return !listed_ || std::binary_search(names_.begin(), names_.end(), name);
  }
  std::optional<std::string> get(std::string_view name) const {
    const auto slash = name.find('/');
    if (!has(slash == std::string_view::npos ? name : name.substr(0, slash))) return std::nullopt;
    return src_->attribute(syspath_, name);
  }
  /// get(name) without surrounding whitespace: SCSI INQUIRY strings are space-padded ("ASMT    "), USB
  /// strings often start with a space (" SanDisk 3.2Gen1"); lsusb shows neither.
  std::optional<std::string> trimmed(std::string_view name) const {
    auto v = get(name);
    if (v) v = std::string(trim(*v));
    return v;
  }
  std::optional<std::string> binary(std::string_view name) const {
    return has(name) ? src_->binary_attribute(syspath_, name) : std::nullopt;
  }
  std::optional<std::string> link(std::string_view name) const {
    return has(name) ? src_->link_target(syspath_, name) : std::nullopt;
  }
  /// get(name) through parser `f` (which returns an optional), converted to T; nullopt when absent or
  /// unparsable.
  template <class T, class F>
  std::optional<T> parse(std::string_view name, F f) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    auto r = f(*v);
    return r ? std::optional<T>(static_cast<T>(*r)) : std::nullopt;
  }
  const std::string& syspath() const { return syspath_; }
  const std::vector<std::string>& entries() const { return names_; }

 private:
  DeviceSource* src_;
  std::string syspath_;
  bool listed_ = true;
  std::vector<std::string> names_;
};

}  // namespace usbsat::topology::scanner
