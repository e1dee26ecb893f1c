#pragma once
/// Hash containers keyed by std::string that look up by std::string_view without building a string (C++20
/// heterogeneous lookup): the scanner's and the topology's indexes of syspaths, where an ordered map's every
/// comparison ran memcmp over the long shared "/sys/devices/pci0000:00/..." prefixes.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace usbsat::topology {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;
using StringSet = std::unordered_set<std::string, StringHash, std::equal_to<>>;

}  // namespace usbsat::topology
