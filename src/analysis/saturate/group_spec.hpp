#pragma once
/// `usbsat saturate --group NAME=/dev/a,/dev/b[@CAP]`: drives the user says share something.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/bandwidth.hpp"

namespace usbsat::analysis::saturate {

/// `--group NAME=/dev/a,/dev/b[@CAP]`.
struct GroupSpec {
  std::string name;
  std::vector<std::string> paths;
  std::optional<topology::Bandwidth> capacity;
  bool operator==(const GroupSpec&) const = default;
};
/// Parse one `--group` value; nullopt when the name is empty, fewer than two paths are given, a path is
/// empty or repeated, or CAP is not a rate.
std::optional<GroupSpec> parse_group_spec(std::string_view s);

}  // namespace usbsat::analysis::saturate
