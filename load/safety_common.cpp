#include <algorithm>

#include "load/safety.hpp"

namespace usbsat::load {

std::optional<SafetyDecision> refuse_without_permission(bool write, bool is_block, const std::string& target,
                                                        const std::vector<std::string>& allow_write) {
  if (!write) return SafetyDecision{false, "writing needs --write (the default is read-only)"};
  if (std::find(allow_write.begin(), allow_write.end(), target) == allow_write.end())
    return SafetyDecision{false, "writing to " + std::string(is_block ? "block device " : "file ") + target +
                                     " needs --allow-write " + target + " naming exactly this " +
                                     (is_block ? "device" : "file")};
  return std::nullopt;
}

std::vector<std::string> canonical_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  out.reserve(paths.size());
  for (const auto& p : paths) out.push_back(canonical_path(p));
  return out;
}

}  // namespace usbsat::load
