#pragma once
/// `--group NAME=/dev/a,/dev/b[@CAP]` (`usbsat saturate`, `usbsat top`): drives the user says share
/// something.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topology/capacity/bandwidth.hpp"

namespace usbsat::analysis::common {

/// `--group NAME=/dev/a,/dev/b[@CAP]`.
struct GroupSpec {
  std::string name;
  std::vector<std::string> paths;
  std::optional<topology::Bandwidth> capacity;
  bool operator==(const GroupSpec&) const = default;
};
/// The capacities a `--group` may declare, bytes/s: 1 KB/s to 1000 GB/s (anything else is a typo).
inline constexpr double kMinGroupCapacity = 1e3;
inline constexpr double kMaxGroupCapacity = 1e12;

/// Parse one `--group` value; nullopt when the name is empty, fewer than two paths are given, a path is
/// empty, repeated or holds an '@' (a second @CAP), or CAP is not a rate within [kMinGroupCapacity,
/// kMaxGroupCapacity]. Then `*error` (when given) says which, in one sentence.
std::optional<GroupSpec> parse_group_spec(std::string_view s, std::string* error = nullptr);

/// The usage error for a set of groups that cannot all be measured as given (two groups with one name),
/// nullopt when they can. Pure.
std::optional<std::string> check_group_specs(std::span<const GroupSpec> specs);

/// Every `--group` value of a command line: parse_group_spec() each, then check_group_specs(). nullopt on the
/// first problem, with `*error` (when given) the usage message ("bad --group 'x=/dev/a': ...").
std::optional<std::vector<GroupSpec>> parse_group_specs(std::span<const std::string> values,
                                                        std::string* error = nullptr);

}  // namespace usbsat::analysis::common
