#include "src/cli/temp_name.hpp"

#include <algorithm>
#include <system_error>

namespace usbsat::cli {

bool is_own_temporary(std::string_view target, std::string_view candidate) {
  constexpr std::size_t kRandom = 6;
  if (target.empty() || candidate.size() != target.size() + 2 + kRandom) return false;
  if (candidate[0] != '.' || candidate.substr(1, target.size()) != target ||
      candidate[target.size() + 1] != '.')
    return false;
  const auto random = candidate.substr(target.size() + 2);
  return std::all_of(random.begin(), random.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

std::vector<std::filesystem::path> stale_temporaries(const std::filesystem::path& dir,
                                                     const std::string& target,
                                                     std::filesystem::file_time_type now) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_own_temporary(target, it->path().filename().string())) continue;
    std::error_code e;
    if (!std::filesystem::is_regular_file(it->symlink_status(e)) || e) continue;
    const auto written = std::filesystem::last_write_time(it->path(), e);
    if (!e && written < now - kStaleTemporaryAge) out.push_back(it->path());
  }
  return out;
}

}  // namespace usbsat::cli
